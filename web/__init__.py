"""The live table page: a Flask application that follows the game at the table.

:func:`create_app` builds the application: the page (``/``), the sessions list
(``/sessions``), the replay viewer (``/replay/<id>``), card images (``/cards/``), the
JSON API and its server-sent event stream (``/api/``), and the 嘴和 scorer page
(``/zuihe/``) when :mod:`web.zuihe` is present, the table's TV (``/tv``, :mod:`web.tv`) and the
players' records (``/stats``, :mod:`web.stats`). :mod:`web.security` guards every request
(the server's own host names, the table token on every change, the Origin).

>>> import tempfile
>>> app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True})
>>> app.test_client().get("/api/state").get_json()["session"] is None
True
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from tuolaji.scorer.errors import InputError
from tuolaji.scorer.safejson import MAX_BYTES

from . import messages as messages  # its catalogue of messages, registered before any of its errors is raised
from .errors import input_error_response
from .i18n import STRINGS, both, normalise_language, translate
from .security import error_response, init_security, load_or_create_token, own_host_names
from .store import DATABASE_NAME, SessionStore, default_data_dir
from .table import Table

DEFAULT_CONFIG: dict[str, Any] = {
    "DATA_DIR": None,  # None: $TUOLAJI_DATA or ./data
    "SSE_KEEPALIVE_S": 15.0,
    "SSE_LIFETIME_S": None,  # None: a stream lasts as long as its client
    "RESUME_LATEST": True,  # open the most recent stored session at start
    "JSON_SORT_KEYS": False,
    "WRITE_TOKEN": None,  # None: the data folder's table-token (made on first use)
    "LOCAL_ONLY": True,  # bound to this machine only: every page may write (False: only with the token)
    "ALLOWED_HOSTS": (),  # host names answered besides addresses, localhost and this machine's name
    "PUBLIC_URL": None,  # the address the phones open (the QR code); None: the address the page was opened at
    "MAX_CONTENT_LENGTH": MAX_BYTES,  # request bodies: 413 beyond (an import: web.api.MAX_IMPORT_BYTES)
    "MAX_FORM_MEMORY_SIZE": MAX_BYTES,
}

def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the application. ``config`` overrides :data:`DEFAULT_CONFIG` (and Flask's own keys)."""
    app = Flask(__name__)
    app.config.update(DEFAULT_CONFIG)
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    # resolved once: send_file reads a relative path against the package folder, not the working directory
    data_dir = (Path(app.config["DATA_DIR"]) if app.config["DATA_DIR"] else default_data_dir()).resolve()
    app.config["DATA_DIR"] = str(data_dir)
    table = Table(SessionStore(data_dir / DATABASE_NAME))
    if not app.config["WRITE_TOKEN"]:
        app.config["WRITE_TOKEN"] = load_or_create_token(data_dir)
    app.config["HOST_NAMES"] = own_host_names(app.config["ALLOWED_HOSTS"])
    init_security(app)
    app.extensions["tuolaji.table"] = table
    if app.config["RESUME_LATEST"]:
        latest = table.store.latest()
        if latest is not None:
            table.open(latest.id)

    from .api import api_bp
    from .pages import cards_bp, pages_bp

    app.register_blueprint(pages_bp)
    app.register_blueprint(cards_bp)
    app.register_blueprint(api_bp)
    app.config["ZUIHE"] = _register_zuihe(app)
    from .extras import register as register_extras

    register_extras(app)
    from .stats import stats_bp
    from .tv import tv_bp

    app.register_blueprint(tv_bp)
    app.register_blueprint(stats_bp)

    @app.context_processor
    def _i18n() -> dict[str, Any]:
        lang = normalise_language(request.args.get("lang") or request.cookies.get("lang"))
        return {"t": lambda key, **values: translate(key, lang, **values), "zuihe": app.config["ZUIHE"]}

    app.register_error_handler(InputError, input_error_response)  # every blueprint's, once

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Response:
        code = error.code or 400
        limit = f"{(request.max_content_length or app.config['MAX_CONTENT_LENGTH']) / 1024 / 1024:g}"
        key = f"http.{code}" if f"http.{code}" in STRINGS else "http.other"
        return error_response(both(key, limit=limit, code=str(code), name=error.name.lower()), code,
                              code=f"http-{code}")

    app.config["I18N"] = STRINGS
    return app


def _register_zuihe(app: Flask) -> bool:
    """Register the 嘴和 scorer's blueprint if its module is there; True when it is."""
    try:
        module = importlib.import_module("tuolaji.web.zuihe")
    except ModuleNotFoundError as exc:
        if exc.name == "tuolaji.web.zuihe":
            return False
        raise
    blueprint = getattr(module, "zuihe_bp", None)
    if blueprint is None:
        return False
    app.register_blueprint(blueprint)
    return True


def get_table(app: Flask) -> Table:
    """The application's :class:`~web.table.Table` (current session, feed, event bus)."""
    return cast(Table, app.extensions["tuolaji.table"])  # Flask's extensions hold untyped values

"""The club's application factory (:func:`create_club_app`) and gunicorn's entry (:func:`app_from_env`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, request

from .notify import Listener
from .store import ClubStore


def create_club_app(dsn: str, config: dict[str, Any] | None = None, *, listen: bool = True) -> Flask:
    """The club's application on the database at ``dsn`` (migrated if need be). ``listen``: relay the
    database's notifications to this process's pages (a background thread)."""
    from ..i18n import normalise_language, translate
    from ..pages import cards_bp
    from .pages import club_bp
    from .table_page import club_table_bp, serve_links_bp

    web = Path(__file__).resolve().parent.parent
    # a table's page at the club is serve's page: its templates, its static files, its card pictures
    app = Flask(__name__, static_folder=str(web / "static"), template_folder=str(web / "templates"))
    app.config.update({"SSE_KEEPALIVE_S": 15.0, "SCREEN_SECONDS": 10, "JSON_SORT_KEYS": False,
                       "CLUB_COMMAND_WAIT_S": 8.0})
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    store = ClubStore(dsn)
    listener = Listener(dsn)
    if listen:
        listener.start()
    app.extensions["tuolaji.club"] = store
    app.extensions["tuolaji.club.listener"] = listener
    app.register_blueprint(club_bp)
    app.register_blueprint(club_table_bp)
    app.register_blueprint(serve_links_bp)
    app.register_blueprint(cards_bp)

    @app.context_processor
    def _i18n() -> dict[str, Any]:
        lang = normalise_language(request.args.get("lang") or request.cookies.get("lang"))
        return {"t": lambda key, **values: translate(key, lang, **values), "zuihe": False}

    return app


def app_from_env() -> Flask:
    """The application of ``$TUOLAJI_CLUB_DB`` (what ``tuolaji club --workers`` has gunicorn load)."""
    import os

    return create_club_app(os.environ["TUOLAJI_CLUB_DB"])

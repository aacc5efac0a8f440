"""The club's application factory (:func:`create_club_app`) and gunicorn's entry (:func:`app_from_env`)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from .notify import Listener
from .store import ClubStore


def create_club_app(dsn: str, config: dict[str, Any] | None = None, *, listen: bool = True) -> Flask:
    """The club's application on the database at ``dsn`` (migrated if need be). ``listen``: relay the
    database's notifications to this process's pages (a background thread)."""
    from .pages import club_bp

    app = Flask(__name__)
    app.config.update({"SSE_KEEPALIVE_S": 15.0, "SCREEN_SECONDS": 10, "JSON_SORT_KEYS": False})
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
    return app


def app_from_env() -> Flask:
    """The application of ``$TUOLAJI_CLUB_DB`` (what ``tuolaji club --workers`` has gunicorn load)."""
    import os

    return create_club_app(os.environ["TUOLAJI_CLUB_DB"])

"""The pages around the table (camera set-up, decks, card tracker, spectator view, pictures of plays, shared results): their
blueprints, registered by :func:`register` (their words, web/extras_i18n.py, are part of the page's one table of
words, web/i18n.py's STRINGS, from its import on)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask


def register(app: Flask) -> None:
    from .camera import camera_bp
    from .decks_page import decks_bp
    from .pictures import forget_pictures, pictures_bp
    from .share import share_bp
    from .tracker import init_watch_guard, tracker_bp

    init_watch_guard(app)
    data = Path(app.config["DATA_DIR"])
    app.extensions["tuolaji.table"].on_delete.append(lambda session_id: forget_pictures(data, session_id))
    app.register_blueprint(camera_bp)
    app.register_blueprint(decks_bp)
    app.register_blueprint(tracker_bp)
    app.register_blueprint(pictures_bp)
    app.register_blueprint(share_bp)

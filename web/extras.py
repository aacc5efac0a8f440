"""The pages around the table (camera set-up, decks, card tracker, spectator view, pictures of plays, shared results): their
blueprints and words, registered by :func:`register`."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from .i18n import STRINGS


def register(app: Flask) -> None:
    from .camera import camera_bp
    from .decks_page import decks_bp
    from .extras_i18n import STRINGS as EXTRA_STRINGS
    from .pictures import forget_pictures, pictures_bp
    from .share import share_bp
    from .tracker import init_watch_guard, tracker_bp

    for key, words in EXTRA_STRINGS.items():
        STRINGS.setdefault(key, words)
    init_watch_guard(app)
    data = Path(app.config["DATA_DIR"])
    app.extensions["tuolaji.table"].on_delete.append(lambda session_id: forget_pictures(data, session_id))
    app.register_blueprint(camera_bp)
    app.register_blueprint(decks_bp)
    app.register_blueprint(tracker_bp)
    app.register_blueprint(pictures_bp)
    app.register_blueprint(share_bp)

"""The card tracker (记牌器) and the spectator view (blueprint ``tracker``).

``GET /api/tracker``: the current deal's tracker (:func:`scorer.tracker.track`: what is
still out, the key cards, the trumps and points left, each seat's proven voids);
``GET /api/replay/<id>/tracker/<step>``: the same at a replay step. The tracker is its
own panel with its own switch: off by default on the players' screen (seed 001's 纪律
forbids looking at played cards during a deal), on for the referee (``/referee``), in the
spectator view and in replay.

``GET /watch`` is the spectator view: the live table, read-only, with the tracker on. The
page is given no table token, and every change sent from it (its ``Referer``) is refused
with 403 even by a browser that holds the token in a cookie.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, jsonify, request

from tuolaji.scorer.tracker import track
from tuolaji.session.changes import rules_record

from .api import get_table
from .i18n import both
from .replay import record_at
from .security import SAFE_METHODS, error_response

tracker_bp = Blueprint("tracker", __name__)

WATCH_PATH = "/watch"


def tracker_of(record: dict[str, Any]) -> dict[str, Any] | None:
    """The tracker of the record's last deal (None without a deal), with the players' names."""
    if not record.get("deals"):
        return None
    return track(rules_record(record)) | {"players": list(record["players"])}


@tracker_bp.get("/api/tracker")
def current() -> Response:
    table = get_table()
    record = table.game.snapshot() if table.has_game else {"deals": []}
    return jsonify({"tracker": tracker_of(record)})


@tracker_bp.get("/api/replay/<int:session_id>/tracker/<int:step>")
def at_step(session_id: int, step: int) -> Response:
    session = get_table().store.get(session_id)
    return jsonify({"step": step, "tracker": tracker_of(record_at(session.record, step))})


@tracker_bp.get(WATCH_PATH)
def watch() -> Response:
    from .pages import render_page

    return render_page("live.html", page="watch", watch=True, write_token=None, table_url=None, table_qr=None)


@tracker_bp.get("/referee")
def referee() -> Response:
    """The referee's screen: the live table (changes as the table's token allows) with the tracker on."""
    from .pages import render_page

    return render_page("live.html", page="live", referee=True)


def from_watch_page() -> bool:
    """Whether the request was sent by the spectator view (its Referer is ``/watch``)."""
    referer = request.headers.get("Referer")
    if not referer:
        return False
    path = urlsplit(referer).path
    return path == WATCH_PATH or path.startswith(WATCH_PATH + "/")


def init_watch_guard(app: Flask) -> None:
    """Refuse every change sent from the spectator view."""

    @app.before_request
    def _refuse_spectator() -> Response | None:
        if request.method in SAFE_METHODS or not from_watch_page():
            return None
        return error_response(both("watch.refused"), 403, code="spectator")



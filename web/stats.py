"""Players' records (战绩) and the leaderboard (排行榜) of the data folder (blueprint ``stats``).

``GET /stats`` is the page; ``GET /api/stats`` every player's record over the stored sessions
(:func:`scorer.player_stats.player_stats` of each session's record and its audit; a session the
scorer refuses is left out and counted in ``skipped``); ``POST /api/stats/rename`` (``{"name",
"to"}``) renames a player in every session's records shown, or makes two players one, through
the store's table of names (:meth:`web.store.SessionStore.rename_player`): the records
themselves are never changed.

>>> import tempfile, pathlib
>>> from .store import SessionStore
>>> store = SessionStore(pathlib.Path(tempfile.mkdtemp()) / "t.sqlite")
>>> gather(store)
{'players': [], 'sessions': 0, 'skipped': 0, 'evenings': [], 'evening': None}
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, jsonify, request

from tuolaji import scorer
from tuolaji.scorer.errors import InputError
from tuolaji.scorer.names import check_name
from tuolaji.scorer.player_stats import RANKING, STAT_KEYS, name_key, player_stats
from tuolaji.session.changes import rules_record

from .api import get_table
from .request_fields import BadRequestError, json_body
from .store import Session, SessionStore

stats_bp = Blueprint("stats", __name__)

_audits: dict[tuple[str, int, float], dict[str, Any] | None] = {}
"""Each stored session's audit, by database, session and time of its last save (the page is
viewed again and again; a session is audited again only once it changed)."""


def _audit(database: Path, session: Session) -> dict[str, Any] | None:
    key = (str(database), session.id, session.updated)
    if key not in _audits:
        if len(_audits) > 1024:
            _audits.clear()
        try:
            _audits[key] = None if session.record.get("x-unreadable") else scorer.audit_record(rules_record(session.record))
        except InputError:
            _audits[key] = None
    return _audits[key]


EVENING_STARTS_S = 6 * 3600
"""A day's games run from 6 in the morning to 6 the next (a club evening past midnight is one evening)."""


def evening_of(session: Session) -> str:
    """The evening a session was played (战绩 per evening): the local date it was last changed,
    counted from 6 in the morning, so that a game past midnight stays on its evening."""
    return time.strftime("%Y-%m-%d", time.localtime(session.updated - EVENING_STARTS_S))


def gather(store: SessionStore, evening: str | None = None) -> dict[str, Any]:
    """Every player's record over the store's sessions (not those in the bin), leaderboard first;
    ``evening`` (``YYYY-MM-DD``): only the sessions played that evening. ``evenings``: the
    evenings the store holds games of, the latest first."""
    games: list[tuple[scorer.Record, dict[str, Any]]] = []
    skipped = 0
    every = store.list()
    evenings = sorted({evening_of(session) for session in every}, reverse=True)
    sessions = [session for session in every if evening is None or evening_of(session) == evening]
    for session in sessions:
        audit = _audit(store.path, session)
        if audit is None:
            skipped += 1
        else:
            games.append((rules_record(session.record), audit))
    rows = player_stats(games, store.player_names())
    names = {row.key: row.name for row in rows}
    return {"players": [row.as_dict(names) | {"rank": rank} for rank, row in enumerate(rows, 1)],
            "sessions": len(sessions) - skipped, "skipped": skipped, "evenings": evenings, "evening": evening}


def _name(data: dict[str, Any], field: str) -> str:
    return check_name(data.get(field), field)


def known_player(store: SessionStore, name: str) -> None:
    """Refuse a name no session's players hold, nor any rename gives (renaming it would do nothing)."""
    key = name_key(name)
    renamed = store.player_names()
    if key in renamed or any(name_key(known) == key for known in renamed.values()):
        return
    for session in store.list():
        players = session.record.get("players")
        if isinstance(players, list) and any(isinstance(p, str) and name_key(p) == key for p in players):
            return
    raise BadRequestError("stats.unknown_player", name=name)


@stats_bp.get("/stats")
def stats_page() -> Response:
    from .pages import render_page

    return render_page("stats.html", page="stats", stat_keys=STAT_KEYS, ranking=RANKING)


EVENING = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@stats_bp.get("/api/stats")
def stats() -> Response:
    """The players' records; ``?evening=YYYY-MM-DD``: of that evening's games only."""
    evening = request.args.get("evening") or None
    if evening is not None and not EVENING.match(evening):
        raise BadRequestError("stats.evening", value=evening[:40])
    return jsonify(gather(get_table().store, evening) | {"keys": list(STAT_KEYS), "ranking": list(RANKING)})


@stats_bp.post("/api/stats/rename")
def rename() -> Response:
    data = json_body()
    if not isinstance(data, dict):
        raise BadRequestError("page.json_object")
    old, new = _name(data, "name"), _name(data, "to")
    store = get_table().store
    known_player(store, old)
    store.rename_player(old, new)
    return jsonify(gather(store) | {"keys": list(STAT_KEYS), "ranking": list(RANKING)})



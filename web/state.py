"""The live page's state (``GET /api/state``): the record, its audit once, the view and the pending
cards of a table's game (:func:`state_payload`), made once per change and kept as JSON
(:func:`state_response`); :func:`build_game_payload` makes it of any game, the club's copy of a
table's record included.
"""

from __future__ import annotations

import json
import weakref
from typing import Any, Literal, overload

from flask import Response, jsonify

from tuolaji.scorer.scoring import is_unit_size
from tuolaji.session.live import LiveGame

from . import dealing, history, results, rules_words, view
from .store import Session
from .table import NoGameError, Table


def state_payload(table: Table) -> dict[str, Any]:
    """Everything the live page draws: session, record, audit, pending cards and derived figures."""
    live = _live_parts(table)
    if not table.has_game:
        return {"session": None, **live, "profiles": view.PROFILES}
    return _game_payload(table) | live


def _live_parts(table: Table) -> dict[str, Any]:
    """The parts of the state that change without a change of the game (the feed's and the club's
    status) and, with a game, which state of the table it is (:attr:`Table.state_version`)."""
    live = {"feed": table.feed.status() if table.feed is not None else None,
            "club": table.club.status() if table.club is not None else None}
    if table.has_game:
        live["version"] = table.state_version
    return live


_payloads: weakref.WeakKeyDictionary[Table, tuple[LiveGame, int, Session | None, dict[str, Any], str]] = \
    weakref.WeakKeyDictionary()
"""Per table, the last game payload and its JSON: made once per change, whoever asks (every page
watching reloads the state after each change)."""


@overload
def _game_payload(table: Table, *, text: Literal[False] = False) -> dict[str, Any]: ...


@overload
def _game_payload(table: Table, *, text: Literal[True]) -> str: ...


def _game_payload(table: Table, *, text: bool = False) -> dict[str, Any] | str:
    """The state of the current game without the feed (cached until the game or session changes);
    ``text``: its JSON text."""
    game, session = table.game, table.session
    version = game.version
    cached = _payloads.get(table)
    # a change makes a new version; a save, a rename or a resume a new session object
    if cached is None or cached[0] is not game or cached[1] != version or cached[2] is not session:
        payload = build_game_payload(game, session)
        cached = (game, version, session, payload, json.dumps(payload, ensure_ascii=False))
        _payloads[table] = cached
    return cached[4] if text else dict(cached[3])  # a new dict; the parts are shared, never changed


def build_game_payload(game: LiveGame, session: Session | None) -> dict[str, Any]:
    """What the live page draws of ``game`` (the record, its audit once, the view, the pending
    cards) and its ``session``'s summary: ``/api/state`` without the feed and the club, of the
    table's game here and of the club's copy of a table's record at the club."""
    # the record and its one audit run (output, typed findings, dealer sides), of one version: read, not
    # copied (the payload is made once and never changed); nothing is audited again or matched here
    full, run = game.audited()
    audit = run.output
    state: dict[str, Any] = {"record": full, "audit": audit, "pending": game.pending(),
                             "expected_seat": game.expected_seat()}
    # the history of changes (web/history.py) stays in the stored record and its export; the page
    # is sent what its undo and redo buttons say (view.history), not every entry at every change,
    # and nothing else reads it (its size grows with every change, the page's work must not)
    record = state["record"] = {key: value for key, value in full.items() if key != "history"}
    return {
        "session": session.summary() | {"id": session.id} if session is not None else None,
        "state": state,
        "view": view.table_view(record, audit, run.findings, run.dealer_sides()) | {
            "bidding": dealing.bidding_view(record, run),
            "settle_ready": [dealing.settle_ready(record, d) for d in range(len(record["deals"]))],
            "rulings": dealing.rulings_view(record, state["audit"], len(record["deals"]) - 1, run=run)
            if record["deals"] else None,
            "history": history.history_view(full),
            "results": results.deal_results(record, state["audit"]),
            "rules_words": rules_words.rules_words(record["rules"], len(record["players"])),
            "trumped": [results.trumped_tricks(record, state["audit"], d) for d in range(len(record["deals"]))],
            "points_units": points_units(view.decks(record)),
            # the rules' "kitty ×1 unless the last trick is won with trumps": the points form asks
            "kitty_needs_trump": view.options(record).kitty_needs_trump},
        "profiles": view.PROFILES,
    }


def points_units(decks: int) -> list[int]:
    """The sizes a last trick's winning unit may have with ``decks`` decks, the smallest eight (只记分's
    unit buttons: the rules core's :func:`scorer.scoring.is_unit_size`).

    >>> points_units(2), points_units(3)
    ([1, 2, 4, 6, 8, 10, 12, 14], [1, 2, 3, 4, 6, 8, 9, 10])
    """
    return [size for size in range(1, 64) if is_unit_size(size, decks)][:8]


def state_response(table: Table, extra: dict[str, Any] | None = None) -> Response:
    """``extra`` and :func:`state_payload` as a JSON response, the game's part from the JSON made
    once per change (every page watching reloads it)."""
    if not table.has_game:
        return jsonify((extra or {}) | state_payload(table))
    live = _live_parts(table)
    try:
        game = _game_payload(table, text=True)
    except NoGameError:  # closed meanwhile
        return jsonify((extra or {}) | state_payload(table))
    parts = [json.dumps(extra, ensure_ascii=False)] if extra else []
    return Response(joined_objects(*parts, game, json.dumps(live, ensure_ascii=False)), mimetype="application/json")


def joined_objects(*texts: str) -> str:
    """One JSON object of the members of the JSON objects ``texts`` (each made once: the game's part of
    the state is serialised once per change, not once per request). Members of different texts
    must not share a name.

    >>> joined_objects('{"deal": 1}', '{}', '{"state": {"a": [1, 2]}, "feed": null}')
    '{"deal": 1, "state": {"a": [1, 2]}, "feed": null}'
    >>> json.loads(joined_objects('{"a": 1}', '{"b": {"c": 2}}'))
    {'a': 1, 'b': {'c': 2}}
    """
    members = [text.strip()[1:-1].strip() for text in texts]
    return "{" + ", ".join(member for member in members if member) + "}"

"""The JSON API and the server-sent event stream behind the page (blueprint ``api``, ``/api``).

Every change goes through the live game (:class:`session.live.LiveGame`), which saves,
re-audits and publishes events; ``GET /api/events`` streams those events to each
page (one queue per client, keep-alive comments, ``retry`` for reconnects), and the
page reloads ``GET /api/state`` whenever it (re)connects or something changes.
"""

from __future__ import annotations

import copy
import json
import logging
import time
from typing import Any, cast

from flask import Blueprint, Response, current_app, jsonify, request

from tuolaji import scorer
from tuolaji.scorer import safejson
from tuolaji.scorer.names import check_name
from tuolaji.session.changes import rules_record
from tuolaji.session.events import StateChanged, event_to_json

from . import points_entry, results, rules_words, view
from .replay import record_at, timeline
from .request_fields import BadRequestError, cards_field, int_field, json_body, name_field, object_body
from .sse import event_stream
from .state import state_payload, state_response
from .store import BIN_DAYS, MAX_NAME_LENGTH
from .table import Table

api_bp = Blueprint("api", __name__, url_prefix="/api")

TRUMPS = ("S", "H", "C", "D", "NT")


MAX_IMPORT_BYTES = safejson.MAX_RECORD_BYTES + 1024 * 1024
"""The largest body of an import (a backup's record, or its zip, with the upload's envelope)."""


def get_table() -> Table:
    return cast(Table, current_app.extensions["tuolaji.table"])  # Flask's extensions hold untyped values


@api_bp.get("/rules")
def rules() -> Response:
    """What a profile, with house rules (``options``, JSON), means for a number of players, in words."""
    profile = request.args.get("profile", "standard-2deck")
    if profile not in view.PROFILES:
        raise BadRequestError("page.profile", profile=profile[:40])
    players = int_field({"players": request.args.get("players", "4")}, "players", low=4, high=7)
    raw = request.args.get("options")
    house = rules_words.house_rules(safejson.loads(raw, "options") if raw else None)
    return jsonify(rules_words.rules_words({"profile": profile, **house} if house else profile, players))


@api_bp.get("/state")
def state() -> Response:
    return state_response(get_table())


@api_bp.get("/events")
def events() -> Response:
    """Server-sent events: one JSON object per game event; a comment line as keep-alive."""
    table = get_table()
    keepalive_s = float(current_app.config["SSE_KEEPALIVE_S"])
    lifetime_s = current_app.config.get("SSE_LIFETIME_S")
    events_queue, unsubscribe = table.bus.subscribe_queue()
    return event_stream(lambda timeout: events_queue.get(timeout=timeout), close=unsubscribe,
                        hello={"session": table.session_id}, message=lambda event: versioned_event(table, event),
                        keepalive_s=keepalive_s, lifetime_s=lifetime_s)


OUTSIDE_THE_GAME = frozenset({"session", "feed-finished", "feed-warning", "club"})
"""The reasons of :class:`StateChanged` events that tell of no change of the game (another session, a
feed's end or what its reader warns of, the club's connection): the page fetches the state after each of them."""


def versioned_event(table: Table, event: Any) -> dict[str, Any]:
    """An event as the stream sends it; a change of the game's with the table's state version as it is
    when sent (the event's own or later: the change is made before it is announced), so that a page
    already holding that state (the answer to its own change) does not fetch it again."""
    sent = event_to_json(event)
    if not (isinstance(event, StateChanged) and event.reason in OUTSIDE_THE_GAME):
        version = table.state_version
        if version is not None:
            sent["version"] = list(version)
    return sent


@api_bp.post("/club/<action>")
def club_mend(action: str) -> Response:
    """The change the club refused to store (``tuolaji serve --club``), mended from the page: ``skip``
    drops it, ``resend`` sends each session's current record in place of the changes waiting."""
    pusher = get_table().club
    if pusher is None:
        raise BadRequestError("page.no_club")
    if action not in ("skip", "resend"):
        raise BadRequestError("page.club_action", action=action[:20])
    try:
        if action == "skip":
            pusher.skip()
        else:
            pusher.resend()
    except LookupError:
        raise BadRequestError("page.club_nothing_held") from None
    return jsonify({"club": pusher.status()})


# --- set-up ------------------------------------------------------------------------


def build_record(data: dict[str, Any]) -> dict[str, Any]:
    """A new record from the set-up form: players, profile, starting levels, first deal."""
    profile = data.get("profile", "standard-2deck")
    if not isinstance(profile, str) or profile not in view.PROFILES:
        raise BadRequestError("page.profile", profile=profile)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) and name.strip() for name in players):
        raise BadRequestError("record.names")
    players = [check_name(name, f"players[{i}]") for i, name in enumerate(players)]
    if len(players) > 12 or any(len(name) > scorer.record.MAX_NAME_LENGTH for name in players):
        raise BadRequestError("page.players_names", most=12, length=scorer.record.MAX_NAME_LENGTH)
    if len(players) not in view.PROFILES[profile]["players"]:
        raise BadRequestError("page.player_count", profile=profile, counts=tuple(view.PROFILES[profile]["players"]),
                              players=len(players))
    levels = data.get("levels") or ["2"] * len(players)
    if not isinstance(levels, list) or len(levels) != len(players) or any(
            not isinstance(lv, str) or lv not in view.LEVELS for lv in levels):
        raise BadRequestError("page.levels")
    fixed_sides = not scorer.resolve_rules(profile).friends  # 找朋友: nobody shares a level from the start
    if fixed_sides and len(players) == 4 and (levels[0] != levels[2] or levels[1] != levels[3]):
        raise BadRequestError("page.partner_levels")
    dealer = int_field(data, "dealer", high=len(players) - 1) if "dealer" in data else 0
    trump = _trump_field(data)
    deal: dict[str, Any] = {"level": levels[dealer], "trump": trump, "dealer": dealer, "tricks": []}
    friends = data.get("friends")
    if friends:
        if not isinstance(friends, list) or len(friends) > 4 or not all(isinstance(f, dict) for f in friends):
            raise BadRequestError("page.friends")
        deal["friends"] = [{"card": cards_field({"card": [f.get("card")]}, "card")[0],
                            "nth": int_field(f, "nth", low=1, high=4)} for f in friends]
    house = rules_words.house_rules(data.get("options"))
    rules: Any = {"profile": profile, **house} if house else profile
    record = {"format": "tuolaji-record/1", "rules": rules, "players": players,
              "start_levels": [str(level) for level in levels], "deals": [deal]}
    scorer.validate_record(rules_record(record))
    return record


def _trump_field(data: dict[str, Any], default: str = "NT") -> str:
    trump = data.get("trump", default)
    if not isinstance(trump, str) or trump not in TRUMPS:
        raise BadRequestError("page.one_of", where="trump", choices=TRUMPS)
    return trump


def _has_plays(record: dict[str, Any]) -> bool:
    return any(deal.get("tricks") for deal in record.get("deals", []))


def _holds_anything(record: dict[str, Any]) -> bool:
    """Whether the record holds more than a bare set-up: plays, bids, a kitty, hands, a second deal.
    Such a record is never replaced by a new set-up (a new session is started beside it)."""
    deals = record.get("deals", [])
    return len(deals) > 1 or any(deal.get(key) for deal in deals for key in ("tricks", "bids", "kitty", "hands"))


@api_bp.post("/setup")
def setup() -> tuple[Response, int]:
    """Set up the table: the current session when it holds nothing yet (no plays, bids or kitty),
    else a new session (the old one stays as it was)."""
    data = object_body()
    table = get_table()
    record = build_record(data)
    name = name_field(data) or time.strftime("%Y-%m-%d %H:%M")
    # a demo or a replayed record keeps writing into its own session: the new game gets one of its own
    replaying = table.feed is not None and table.feed.session_id == table.session_id and table.feed.source in (
        "demo", "record")
    with table.writing_or_none() as game:
        if game is not None and not _holds_anything(game.snapshot()) and not data.get("new") and not replaying:
            game.import_record(record, reason="setup")  # saved first: a rename that fails then loses nothing
            session_id = table.session_id
            assert session_id is not None  # a game is open: its session is
            table.store.rename(session_id, name)
            table.open(session_id)
            return jsonify(state_payload(table)), 200
        table.start(record, name=name, source="page")
    return jsonify(state_payload(table)), 201


@api_bp.post("/deal")
def edit_deal() -> Response:
    """Change the current deal's trump, dealer or 找朋友 call (before its first trick); the level
    is the dealer's own (one that is not is refused), the standing bid decides trump and dealer."""
    data = object_body()
    with get_table().writing() as game:
        record, _ = game.current()
        if not record["deals"]:
            raise BadRequestError("session.no_deal", what="deal")
        changes: dict[str, Any] = {}
        if "trump" in data:
            changes["trump"] = _trump_field(data)
        if "dealer" in data:
            changes["dealer"] = int_field(data, "dealer", high=len(record["players"]) - 1)
        if "level" in data:
            if not isinstance(data["level"], str) or data["level"] not in view.LEVELS:
                raise BadRequestError("page.level")
            changes["level"] = data["level"]
        if "friends" in data:
            changes["friends"] = _friends_field(data)
        game.edit_deal(changes, history=True)
    return state_response(get_table())


def _friends_field(data: dict[str, Any]) -> list[dict[str, Any]]:
    friends = data.get("friends") or []
    if not isinstance(friends, list) or len(friends) > 4 or not all(isinstance(f, dict) for f in friends):
        raise BadRequestError("page.friends")
    return [{"card": cards_field({"card": [f.get("card")]}, "card")[0], "nth": int_field(f, "nth", low=1, high=4)}
            for f in friends]


@api_bp.post("/next-deal")
def next_deal() -> tuple[Response, int]:
    """Start the next deal: the audit's next dealer, at his side's new level, once the kitty is known."""
    data = object_body(optional=True)
    trump = _trump_field(data)
    with get_table().writing() as game:
        index = game.next_deal(trump, history=True)
    return state_response(get_table(), {"deal": index}), 201


@api_bp.post("/bid")
def bid() -> Response:
    """A bid entered by click: the seat and the cards shown. Only a bid that stands is taken;
    trump, dealer and level follow the standing bid (the rules core's bidding state)."""
    data = object_body()
    with get_table().writing() as game:
        record, _ = game.current()
        seat = int_field(data, "seat", high=len(record["players"]) - 1)
        cards = cards_field(data, "cards")
        if not cards:
            raise BadRequestError("page.bid_empty")
        if not record["deals"]:
            raise BadRequestError("session.no_deal", what="bid")
        game.bid(seat, cards, history=True)
    return state_response(get_table())


@api_bp.post("/bid/withdraw")
def withdraw_bid() -> Response:
    """Take back the current deal's last bid."""
    with get_table().writing() as game:
        if not game.current()[0]["deals"]:
            raise BadRequestError("session.no_deal", what="bid")
        game.withdraw_bid(history=True)
    return state_response(get_table())


@api_bp.post("/play")
def play() -> tuple[Response, int]:
    """A play entered by hand (a card the camera missed, or a table without a camera)."""
    data = object_body()
    with get_table().writing() as game:
        seat = int_field(data, "seat", high=game.players - 1)
        cards = cards_field(data, "cards")
        if not cards:
            raise BadRequestError("page.play_empty")
        # 甩牌失败: the throw laid down (the attempt) and the forced unit actually played
        attempt = cards_field(data, "attempt") if data.get("attempt") else None
        # the deal and trick the sender saw the play going into: another device's play meanwhile refuses it
        seen = (int_field(data, "deal"), int_field(data, "trick")) if "trick" in data else None
        event = game.play(seat, cards, attempt=attempt, history=True, seen=seen)
    return state_response(get_table(), {"deal": event.deal, "trick": event.trick}), 201


def _card_position(data: dict[str, Any], game: Any) -> tuple[int, int, int, int]:
    return (int_field(data, "deal"), int_field(data, "trick"),
            int_field(data, "seat", high=game.players - 1), int_field(data, "index"))


@api_bp.post("/correct")
def correct() -> Response:
    """Replace one card the camera read; the record keeps the correction; re-audited at once."""
    data = object_body()
    with get_table().writing() as game:
        deal, trick, seat, index = _card_position(data, game)
        card = cards_field({"card": [data.get("card")]}, "card")[0] if isinstance(data.get("card"), str) else None
        if card is None:
            raise BadRequestError("page.card")
        event = game.correct(deal, trick, seat, index, card, source="page", history=True)
    return state_response(get_table(), {"correction": event_to_json(event)})


@api_bp.post("/confirm")
def confirm() -> Response:
    """Confirm a card the camera could not settle, as read."""
    data = object_body()
    with get_table().writing() as game:
        deal, trick, seat, index = _card_position(data, game)
        event = game.confirm(deal, trick, seat, index, source="page-confirm", history=True)
    return state_response(get_table(), {"correction": event_to_json(event)})


@api_bp.post("/enter-play")
def enter_play() -> Response:
    """Enter the cards of a play the camera did not see (the trick's ``missing``, docs/RECORD.md);
    kept in the history, undone like any change."""
    data = object_body()
    with get_table().writing() as game:
        deal, trick = int_field(data, "deal"), int_field(data, "trick")
        seat = int_field(data, "seat", high=game.players - 1)
        cards = cards_field(data, "cards")
        game.enter_play(deal, trick, seat, cards, history=True)
    return state_response(get_table(), {"deal": deal, "trick": trick, "seat": seat})


def _deal_index(data: dict[str, Any], record: dict[str, Any], what: str) -> int:
    """The deal a request names (``deal``), else the current one; a record with no deal is refused."""
    if not record["deals"]:
        raise BadRequestError("session.no_deal", what=what)
    return int_field(data, "deal", high=len(record["deals"]) - 1) if "deal" in data else len(record["deals"]) - 1


@api_bp.post("/kitty")
def kitty() -> Response:
    """Record the kitty (the buried cards) once it is turned up, or ``{"unknown": true}``: 底牌未知."""
    data = object_body()
    with get_table().writing() as game:
        deal_index = _deal_index(data, game.current()[0], "kitty")
        if data.get("points") is not None:  # 只记分: the kitty's points, its cards not recorded
            game.apply(points_entry.kitty_command(data, game.current()[0]))
            return state_response(get_table())
        cards = None if data.get("unknown") is True else cards_field(data, "cards")
        game.set_kitty(deal_index, cards, history=True)
    return state_response(get_table())


# --- 只记分: points only (docs/RECORD.md) ------------------------------------------------------------


@api_bp.post("/points/trick")
def points_trick() -> tuple[Response, int]:
    """A trick recorded by its winner and points alone; ``last``: the deal's last trick, won with a
    unit of ``unit`` cards (``trump: false``: not a trump), which ends the deal
    (:func:`web.points_entry.trick_command`)."""
    data = object_body()
    with get_table().writing() as game:
        # the deal and trick the sender meant: a second phone's entry of a recorded trick is refused
        game.apply(points_entry.trick_command(data, game.current()[0]))
    return state_response(get_table()), 201


@api_bp.post("/points/concede")
def points_concede() -> Response:
    """认输: the current deal conceded by ``by`` (``"dealer"`` or ``"defenders"``) in one tap, settled by
    the defenders' ``points`` agreed (optional) or the house's fixed cost: no last trick, no kitty."""
    data = object_body()
    with get_table().writing() as game:
        game.apply(points_entry.concede_command(data, game.current()[0]))
    return state_response(get_table())


@api_bp.post("/points/deal")
def points_deal() -> Response:
    """The current deal ended by the defenders' points from the tricks, the last trick's winner and
    unit, and the kitty's points (optional). 认输 is ``/points/concede``: the old ``agreed`` is refused (400)."""
    data = object_body()
    with get_table().writing() as game:
        game.apply(points_entry.deal_command(data, game.current()[0]))
    return state_response(get_table())


@api_bp.post("/undo")
def undo() -> Response:
    """Take back the last change made on the page (a play, bid, kitty, setting, penalty, correction or
    next deal); the record's history keeps both the change and its undo."""
    with get_table().writing() as game:
        game.undo()
    return state_response(get_table())


@api_bp.post("/redo")
def redo() -> Response:
    """Put back the last change undone (until a new change is made)."""
    with get_table().writing() as game:
        game.redo()
    return state_response(get_table())


@api_bp.post("/ruling")
def ruling() -> Response:
    """Apply a penalty for one of a deal's violations: the profile's (no ``points`` or ``levels``
    given) or the organiser's own; the audit counts it in the deal's points and levels."""
    data = object_body()
    with get_table().writing() as game:
        deal_index = _deal_index(data, game.current()[0], "ruling")
        violation = int_field(data, "violation", high=1000)
        points = int_field(data, "points", high=scorer.record.MAX_RULING_POINTS) if data.get("points") else None
        levels = int_field(data, "levels", low=1, high=3) if data.get("levels") else None
        game.rule(deal_index, violation, points=points, levels=levels, history=True)
    return state_response(get_table())


@api_bp.post("/ruling/remove")
def remove_ruling() -> Response:
    """Take back one penalty the table applied."""
    data = object_body()
    with get_table().writing() as game:
        deal_index = _deal_index(data, game.current()[0], "ruling")
        game.remove_ruling(deal_index, int_field(data, "ruling", high=1000), history=True)
    return state_response(get_table())


# --- sessions ----------------------------------------------------------------------


@api_bp.get("/sessions")
def sessions() -> Response:
    """The stored sessions, and those in the bin (restorable until their ``purge`` time)."""
    table = get_table()
    table.purge_bin()
    return jsonify({"current": table.session_id, "sessions": [s.summary() for s in table.store.list()],
                    "bin": [s.summary() for s in table.store.binned()]})


@api_bp.post("/sessions/<int:session_id>/resume")
def resume(session_id: int) -> Response:
    table = get_table()
    table.open(session_id)
    return jsonify(state_payload(table))


@api_bp.post("/sessions/<int:session_id>/rename")
def rename(session_id: int) -> Response:
    name = name_field(object_body())
    if not name:
        raise BadRequestError("name.empty")
    get_table().store.rename(session_id, name)
    return jsonify({"id": session_id, "name": name})


@api_bp.post("/sessions/<int:session_id>/delete")
def delete(session_id: int) -> Response:
    """Move a session to the bin: restorable for :data:`web.store.BIN_DAYS` days."""
    get_table().delete(session_id)
    return jsonify({"deleted": session_id, "bin": True, "days": BIN_DAYS})


@api_bp.post("/sessions/<int:session_id>/restore")
def restore(session_id: int) -> Response:
    """Take a session out of the bin."""
    get_table().restore(session_id)
    return jsonify({"restored": session_id})


@api_bp.get("/sessions/<int:session_id>/export")
def export(session_id: int) -> Response:
    """The session's whole record, its history included, as a JSON file download (what ``tuolaji
    audit`` reads): indented, or compact when indented it would pass the size a reader takes."""
    session = get_table().store.get(session_id)
    record = {**session.record, "name": session.name}  # the game's name travels with it (read back on import)
    body, trimmed = backup_text(record)
    filename = f"tuolaji-session-{session_id}.json"
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    if trimmed:
        headers["X-Tuolaji-History-Trimmed"] = str(trimmed)
    return Response(body, mimetype="application/json", headers=headers)


def backup_text(record: dict[str, Any]) -> tuple[str, int]:
    """A record as a backup's JSON text that the import and ``tuolaji audit`` read back (at most
    :data:`scorer.safejson.MAX_RECORD_BYTES`): indented, or compact when indented it would pass the
    size a reader takes by default; past the backup's limit, its oldest history entries are dropped
    (``x-history-trimmed``: how many; undo reaches back less far). Returns the text and that count."""
    body = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    if len(body.encode("utf-8")) <= safejson.MAX_BYTES:
        return body, 0
    body = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    history = record.get("history")
    if len(body.encode("utf-8")) <= safejson.MAX_RECORD_BYTES or not isinstance(history, list):
        return body, 0
    sizes = [len(json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) + 1 for entry in history]
    over = len(body.encode("utf-8")) - safejson.MAX_RECORD_BYTES + 64
    dropped = 0
    while dropped < len(history) and over > 0:
        over -= sizes[dropped]
        dropped += 1
    trimmed = {**record, "history": history[dropped:], "x-history-trimmed": dropped}
    logging.getLogger("tuolaji.store").warning("export: %d oldest history entries left out (over %d MiB)",
                                               dropped, safejson.MAX_RECORD_BYTES // 1024 // 1024)
    return json.dumps(trimmed, ensure_ascii=False, separators=(",", ":")) + "\n", dropped


def read_uploaded_record() -> tuple[dict[str, Any], str]:
    """The record in an upload (form field ``file``) or the JSON body; and a name for it."""
    request.max_content_length = MAX_IMPORT_BYTES  # a backup of whatever a table keeps comes back
    upload = request.files.get("file") if request.mimetype == "multipart/form-data" else None
    if upload is not None and upload.filename:
        name = check_name(safejson.check_text(upload.filename, "file name")[:MAX_NAME_LENGTH], "file name")
        record = safejson.loads(upload.read(safejson.MAX_RECORD_BYTES + 1), name, max_bytes=safejson.MAX_RECORD_BYTES)
    else:
        record = json_body(max_bytes=safejson.MAX_RECORD_BYTES)
        name = "import"
        if isinstance(record, dict) and isinstance(record.get("record"), dict):
            name = name_field(record) or name
            record = record["record"]
    if not isinstance(record, dict):
        raise BadRequestError("page.import_object")
    if isinstance(record.get("record"), dict) and "format" not in record:
        record = record["record"]  # a replay output that wraps the record with its own metadata
    scorer.validate_record(record)
    record = copy.deepcopy(record)
    # the game's name an export wrote into the record (unless the request names it), else the file's without .json
    own = record.pop("name", None)
    if isinstance(own, str) and own.strip() and name in ("import", upload.filename if upload is not None else None):
        name = check_name(own, "name")
    elif upload is not None and name.lower().endswith(".json") and len(name) > 5:
        name = name[:-5]
    return record, name


@api_bp.post("/sessions/import")
def import_session() -> tuple[Response, int]:
    record, name = read_uploaded_record()
    session_id = get_table().store.create(record, name=name, source="import")
    return jsonify({"id": session_id, "name": name}), 201


# --- replay ------------------------------------------------------------------------


@api_bp.get("/replay/<int:session_id>")
def replay_timeline(session_id: int) -> Response:
    session = get_table().store.get(session_id)
    return jsonify({"session": session.summary(), "steps": timeline(session.record)})


@api_bp.get("/replay/<int:session_id>/at/<int:step>")
def replay_at(session_id: int, step: int) -> Response:
    """The game as it stood after ``step`` plays: record, audit and the derived figures."""
    session = get_table().store.get(session_id)
    record = record_at(session.record, step)
    run = scorer.audit_again(rules_record(record))  # one audit: its output, findings and dealer sides
    audit = run.output
    steps = timeline(session.record)
    return jsonify({
        "step": step,
        "total": len(steps),
        "state": {"record": record, "audit": audit, "pending": [], "expected_seat": None},
        "view": view.table_view(record, audit, run.findings, run.dealer_sides()) | {
            "results": results.deal_results(record, audit),
            "trumped": [results.trumped_tricks(record, audit, d) for d in range(len(record["deals"]))]},
        "session": session.summary(),
    })

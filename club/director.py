"""The director's console (``/club/director?token=…``, the organiser's token): an evening run from one
page, no terminal after ``tuolaji club``.

The page (``club/templates/club_director.html`` with ``web/static/director.js`` on the shared page
client) keeps the organiser's token and sends it with every request (``X-Tuolaji-Token``, which the
club reads as its bearer). Its API, the organiser's alone:

- ``GET /club/director/api/state``: the pairs, the round clock (``seconds_left`` in a round by time,
  :func:`seconds_left`), the latest round (under way or just over: ``ended_how``
  says whether the director ended it, its time came or it ended itself, every table having played its
  deals) with its seating (table, 南北 pair, 东西 pair, their players) and each table's status
  (:class:`TableStatus`); a round the console starts by deals ends itself (``ends_itself``, unless
  ``false``);
- ``GET /club/director/api/tables``: each table's token, the address its phones open at the club and
  that address as a QR code;
- ``POST …/pairs`` (``{"text"}``: one pair a line, its name and its two players, pasted or typed;
  all registered or none), ``POST …/tables`` (``{"name"}``), ``POST …/rounds`` (what
  ``/club/api/rounds`` takes), ``POST …/rounds/move`` (``{"pair", "table", "side"}``: a pair moved in
  the round under way, the pair there taking its seat) and ``POST …/rounds/end``;
- ``GET …/results``: each round's result at each table, the record's figures, the director's fixes
  (each with the figures before it and its reason) and the figures the standings count;
  ``POST …/results/fix`` (``{"round", "table", "ns", "ew", "reason"}``) fixes one, its reason required;
- ``GET /club/director/backup?token=…``: the club's database as a ``pg_dump`` archive (:mod:`club.backup`);
  ``POST …/restore`` (``{"backup": base64, "confirm": true}``) puts one back, replacing everything.

A refusal is the club's one line of JSON with its words in both languages (``message``: the
application's handler, :mod:`club.app`), which the page shows in its language.
"""

from __future__ import annotations

import base64
import re
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, jsonify, request

from tuolaji.web.pages import render_page
from tuolaji.web.security import qr_svg

from .errors import ClubRefused
from .movements import MOVEMENTS
from .pages import bearer, json_body, organiser_only, store
from .results import RULES
from .tables import OFFLINE_AFTER_S

club_director_bp = Blueprint("club_director", __name__, template_folder="templates")

SEATINGS = ("hand", "drawn", "swiss", *MOVEMENTS)
"""How a round may be seated (:meth:`club.store.ClubStore.start_round`; the movements: :mod:`club.movements`)."""

MAX_PAIRS_TEXT = 20_000
"""The longest list of pairs pasted at once (characters): some hundreds of pairs."""

_SEPARATORS = re.compile(r"[\s,，、;；]+")


def pairs_from_text(text: str) -> list[tuple[str, str, str]]:
    """The pairs of a pasted list: one a line, its name then its two players, apart by spaces or
    commas (``,，、;；``); blank lines are skipped. A line of another shape is refused by its number.

    >>> pairs_from_text("甲乙 老张 老李\\n\\n丙丁，老王、小周")
    [('甲乙', '老张', '老李'), ('丙丁', '老王', '小周')]
    >>> pairs_from_text("甲乙 老张")
    Traceback (most recent call last):
    ...
    tuolaji.club.errors.ClubRefused: line 1: a pair is its name and its two players ('甲乙 老张')
    """
    if len(text) > MAX_PAIRS_TEXT:
        raise ClubRefused("club.pairs_text", most=MAX_PAIRS_TEXT)
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        words = [word for word in _SEPARATORS.split(line) if word]
        if not words:
            continue
        if len(words) != 3:
            raise ClubRefused("club.pair_line", line=number, text=line.strip()[:80])
        pairs.append((words[0], words[1], words[2]))
    if not pairs:
        raise ClubRefused("club.pairs_none")
    return pairs


@dataclass(frozen=True)
class TableStatus:
    """What the console says of a table: ``playing`` (the round's ``deal`` of its ``deals``, or under a
    round by time its ``deal``), ``finished`` (the round's deals all played), ``offline`` (its machine
    not heard from ``since``, an ISO time; None: never), or ``free`` (not seated in a round under way)."""

    table: str
    state: str
    deal: int | None = None
    deals: int | None = None
    since: str | None = None


def table_status(table: str, seen: datetime | None, now: datetime, round_: dict[str, Any] | None) -> TableStatus:
    """The status of ``table``, whose machine was last heard from at ``seen``, at ``now``, in the round
    under way (:meth:`~club.store.ClubStore.current_round`, None: none). A table that has played the
    round's deals is finished whether its machine is on or not; one seated and silent is offline.

    >>> from datetime import timezone
    >>> now = datetime(2026, 12, 6, 20, 0, tzinfo=timezone.utc)
    >>> round_ = {"ends_by": "deals", "deals": 2, "deals_played": {"A": 1, "B": 2}}
    >>> table_status("A", now, now, round_)
    TableStatus(table='A', state='playing', deal=2, deals=2, since=None)
    >>> table_status("B", None, now, round_).state, table_status("C", now, now, round_).state
    ('finished', 'free')
    >>> table_status("A", now - timedelta(minutes=5), now, round_)
    TableStatus(table='A', state='offline', deal=None, deals=None, since='2026-12-06T19:55:00+00:00')
    """
    played = (round_ or {}).get("deals_played", {})
    if round_ is not None and table in played and round_["ends_by"] == "deals" and played[table] >= round_["deals"]:
        return TableStatus(table, "finished", deals=round_["deals"])
    if seen is None or now - seen > timedelta(seconds=OFFLINE_AFTER_S):
        return TableStatus(table, "offline", since=seen.isoformat() if seen is not None else None)
    if round_ is not None and table in played:
        return TableStatus(table, "playing", deal=played[table] + 1,
                           deals=round_["deals"] if round_["ends_by"] == "deals" else None)
    return TableStatus(table, "free")


def seconds_left(ends_at: str | None, now: datetime) -> int | None:
    """The round clock: the whole seconds left at ``now`` in a round by time ending at ``ends_at`` (an ISO
    time; None: a round by deals, no clock), 0 once its time is up.

    >>> from datetime import timezone
    >>> now = datetime(2026, 12, 6, 20, 17, 30, tzinfo=timezone.utc)
    >>> seconds_left("2026-12-06T20:30:00+00:00", now), seconds_left("2026-12-06T20:00:00+00:00", now)
    (750, 0)
    >>> seconds_left(None, now) is None
    True
    """
    if ends_at is None:
        return None
    return max(0, int((datetime.fromisoformat(ends_at) - now).total_seconds()))


# --- the page ------------------------------------------------------------------------------------

@club_director_bp.get("/club/director")
def director_page() -> Response:
    """The console, the organiser's token kept in the page; without it, a page that says so (403)."""
    token = request.args.get("token")
    allowed = store().is_organiser(token)
    response = render_page("club_director.html", page="director", write_token=token if allowed else None)
    response.status_code = 200 if allowed else 403
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # the address holds the token
    return response


# --- its API -----------------------------------------------------------------------------------------

def _seating(round_number: int | None) -> list[dict[str, Any]]:
    """The seating of round ``round_number``: per table its 南北 and 东西 pairs with their players."""
    if round_number is None:
        return []
    players = {pair["pair"]: pair["players"] for pair in store().pairs()}
    for entry in store().rounds():
        if entry["round"] == round_number:
            return [{"table": seat["table"], "ns": {"pair": seat["ns"], "players": players.get(seat["ns"], [])},
                     "ew": {"pair": seat["ew"], "players": players.get(seat["ew"], [])}}
                    for seat in entry["seatings"]]
    return []


@club_director_bp.get("/club/director/api/state")
def api_state() -> Response:
    organiser_only()
    club = store()
    club.end_due_rounds()
    current = club.current_round()
    latest = club.last_round()
    number = latest["round"] if latest is not None else None
    now = datetime.now().astimezone()
    tables = [asdict(table_status(entry["table"], datetime.fromisoformat(entry["seen"]) if entry["seen"] else None,
                                  now, current))
              for entry in club.overview()]
    ended_how = club.ended_how(latest["round"]) if latest is not None and latest["ended"] else None
    clock = seconds_left(current["ends_at"], now) if current is not None else None
    return jsonify({"round": current, "latest": latest, "ended_how": ended_how, "seconds_left": clock,
                    "seating": _seating(number),
                    "tables": tables,
                    "pairs": club.pairs(), "seatings": list(SEATINGS), "rules": list(RULES)})


@club_director_bp.get("/club/director/api/tables")
def api_tables() -> Response:
    """Each table's token and the address its phones open at the club (with its QR code)."""
    organiser_only()
    base = request.host_url.rstrip("/")
    out = []
    for name, token in store().table_tokens():
        address = f"{base}/club/table/{quote(name, safe='')}?token={quote(token, safe='')}"
        out.append({"table": name, "token": token, "address": address, "qr": qr_svg(address)})
    return jsonify({"tables": out})


@club_director_bp.post("/club/director/api/tables")
def api_add_table() -> tuple[Response, int]:
    organiser_only()
    name = json_body().get("name")
    return jsonify({"table": name, "token": store().add_table(str(name or ""))}), 201


@club_director_bp.post("/club/director/api/pairs")
def api_add_pairs() -> tuple[Response, int]:
    """Pairs pasted as a list (``{"text"}``), registered all at once or none."""
    organiser_only()
    text = json_body().get("text")
    if not isinstance(text, str):
        raise ClubRefused("club.pairs_none")
    added = store().add_pairs(pairs_from_text(text))
    return jsonify({"added": len(added), "pairs": store().pairs()}), 201


@club_director_bp.post("/club/director/api/rounds")
def api_start_round() -> tuple[Response, int]:
    organiser_only()
    body = json_body()
    result = store().start_round(seating=str(body.get("seating", "hand")), tables=body.get("tables"),
                                 ends_by=str(body.get("ends_by", "deals")), deals=body.get("deals"),
                                 minutes=body.get("minutes"), rule=str(body.get("rule", "levels")),
                                 ends_itself=body.get("ends_itself", True) is not False)
    return jsonify(result), 201


@club_director_bp.post("/club/director/api/rounds/move")
def api_move_pair() -> Response:
    """Move a pair (``{"pair", "table", "side"}``) in the round under way: the pair there takes its seat."""
    organiser_only()
    body = json_body()
    return jsonify(store().move_pair(body.get("pair"), body.get("table"), body.get("side")))


@club_director_bp.post("/club/director/api/rounds/end")
def api_end_round() -> Response:
    organiser_only()
    return jsonify({"ended": store().end_round()})



@club_director_bp.get("/club/director/api/results")
def api_results() -> Response:
    """Each round's result at each table (:meth:`~club.store.ClubStore.table_results`): the record's
    figures, the director's fixes with their reasons, and the figures that count."""
    organiser_only()
    return jsonify({"results": store().table_results()})


@club_director_bp.post("/club/director/api/results/fix")
def api_fix_result() -> tuple[Response, int]:
    """Fix a table's result in a round (``{"round", "table", "ns": {…}, "ew": {…}, "reason"}``): the
    standings count the fixed figures; the figures before and the reason stay in the record."""
    organiser_only()
    body = json_body()
    row = store().fix_result(body.get("round"), body.get("table"), {"ns": body.get("ns"), "ew": body.get("ew")},
                             body.get("reason"))
    return jsonify(row), 201


# --- the seat cards and the projector's slide ---------------------------------------------------------

def round_seating(number: int | None = None) -> dict[str, Any]:
    """Round ``number``'s seating (None: the round under way, else the latest), with how it ends and
    whether it is under way: what the seat cards and the projector's slide show."""
    club = store()
    club.end_due_rounds()
    current = club.current_round()
    rounds = club.rounds()
    if number is None:
        number = current["round"] if current is not None else (rounds[-1]["round"] if rounds else None)
    entry = next((r for r in rounds if r["round"] == number), None)
    if entry is None:
        return {"round": None, "under_way": False, "seating": []}
    under_way = current is not None and current["round"] == number
    return {"round": number, "under_way": under_way, "ends_by": entry["ends_by"], "deals": entry["deals"],
            "minutes": entry["minutes"], "started": entry["started"],
            "ends_at": current["ends_at"] if under_way and current is not None else None,
            "seconds_left": seconds_left(current["ends_at"], datetime.now().astimezone())
            if under_way and current is not None else None,
            "seating": _seating(number)}


@club_director_bp.get("/club/api/seating")
def api_seating() -> Response:
    """The seating of the round under way (else the latest; ``?round=N``: that one), as the seat cards
    and the projector's slide show it; anyone may read it, as the room."""
    number = request.args.get("round", type=int)
    if number is not None and not 0 < number < 2**31:
        number = 0
    return jsonify(round_seating(number))


def _seating_page(template: str) -> Response:
    response = render_page(template, page="seating")
    response.headers["Cache-Control"] = "no-store"
    return response


@club_director_bp.get("/club/cards")
def seat_cards() -> Response:
    """The seat cards to print: one a table, its name, the round and its 南北 and 东西 pairs."""
    return _seating_page("club_cards.html")


@club_director_bp.get("/club/slide")
def projector_slide() -> Response:
    """The projector's slide: the round's seating in big type, following the round live."""
    return _seating_page("club_slide.html")


# --- backup and restore ---------------------------------------------------------------------------------

@club_director_bp.get("/club/director/backup")
def download_backup() -> Response:
    """The club's whole database as a ``pg_dump`` archive, to download (the organiser's token in the
    address, as the console's link has it, or in the header)."""
    if not store().is_organiser(bearer() or request.args.get("token")):
        raise ClubRefused("club.organiser", 403)
    archive = store().backup()
    name = datetime.now().astimezone().strftime("club-%Y%m%d-%H%M.backup")
    return Response(archive, mimetype="application/octet-stream",
                    headers={"Content-Disposition": f"attachment; filename={name}", "Cache-Control": "no-store"})


@club_director_bp.post("/club/director/api/restore")
def api_restore() -> Response:
    """Replace the club's data with a backup's (``{"backup": base64 of the archive, "confirm": true}``)."""
    organiser_only()
    body = json_body()
    if body.get("confirm") is not True:
        raise ClubRefused("club.restore_confirm")
    try:
        archive = base64.b64decode(str(body.get("backup") or ""), validate=True)
    except ValueError:
        raise ClubRefused("club.restore_not_backup") from None
    store().restore(archive)
    return jsonify({"restored": True, "tables": len(store().table_names()), "pairs": len(store().pairs()),
                    "rounds": len(store().rounds())})

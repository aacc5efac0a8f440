"""The club's pages and JSON API (a Flask blueprint; :func:`club.create_club_app` registers it).

Who may do what: anyone may read (the room, a table, the standings); a table's machine pushes
its changes with its own token (``Authorization: Bearer <token>``); the organiser's token
registers tables, pairs and rounds. Every refusal is one line of JSON ``{"error": …}``; the
database away is 503 ``club database unavailable (…)``, and the tables keep their changes.
"""

from __future__ import annotations

import io
import os
from datetime import date
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from tuolaji.scorer import safejson
from tuolaji.scorer.errors import InputError
from tuolaji.web.i18n import normalise_language, translate
from tuolaji.web.pages import render_page
from tuolaji.web.sse import event_stream

from .errors import ClubDatabaseDown, ClubRefused
from .notify import Listener
from .results import RULES, results_csv, standings_csv
from .store import ClubStore

club_bp = Blueprint("club", __name__)


def store() -> ClubStore:
    result: ClubStore = current_app.extensions["tuolaji.club"]
    return result


def listener() -> Listener:
    result: Listener = current_app.extensions["tuolaji.club.listener"]
    return result


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[7:].strip()
    return request.headers.get("X-Tuolaji-Token") or None


def organiser_only() -> None:
    if not store().is_organiser(bearer()):
        raise ClubRefused("club.organiser", 403)


@club_bp.errorhandler(ClubRefused)
def _refused(error: ClubRefused) -> tuple[Response, int]:
    return jsonify({"error": str(error), **error.extra}), error.status


@club_bp.errorhandler(ClubDatabaseDown)
def _down(error: ClubDatabaseDown) -> tuple[Response, int]:
    return jsonify({"error": str(error)}), 503


def json_body() -> dict[str, Any]:
    """The request's JSON object, read by the project's reader (:func:`scorer.safejson.loads`: its
    depth, numbers and text; the size is the app's ``MAX_CONTENT_LENGTH``)."""
    try:
        body = safejson.loads(request.get_data(cache=True), "request body",
                              max_bytes=int(current_app.config["MAX_CONTENT_LENGTH"]))
    except InputError as exc:
        raise ClubRefused(exc.key, 400, **exc.params) from None
    if not isinstance(body, dict):
        raise ClubRefused("club.body_object")
    return body


# --- the API --------------------------------------------------------------------------------------

@club_bp.get("/club/api/health")
def api_health() -> Response:
    return jsonify({"database": "up" if store().ping() else "down"})


@club_bp.get("/club/api/overview")
def api_overview() -> Response:
    store().end_due_rounds()  # a round by time past its end: ended as of then, before the room is read
    current = store().current_round()
    last = store().last_round() if current is None else None  # the round just over, until the next starts
    seatings = store().current_seatings()  # shown in the room and on the projector until the round ends
    return jsonify({"round": current, "last_round": last,
                    "tables": [entry | {"seating": seatings.get(entry["table"])} for entry in store().overview()]})


@club_bp.post("/club/api/tables")
def api_add_table() -> tuple[Response, int]:
    organiser_only()
    name = json_body().get("name")
    return jsonify({"table": name, "token": store().add_table(str(name or ""))}), 201


def _row_id(value: int | None) -> int:
    """A row's id from the address: one PostgreSQL's BIGINT holds, else 404 (not a 500)."""
    if value is not None and not 0 <= value < 2**63:
        raise ClubRefused("club.no_session", 404, name=request.view_args.get("name", "") if request.view_args else "")
    return int(value or 0)


@club_bp.get("/club/api/tables/<name>")
def api_table(name: str) -> Response:
    entry = store().table_overview(name)
    session = request.args.get("session", type=int)
    if session is not None:
        _row_id(session)
    record = store().record(name, session) if entry["session"] is not None else None
    return jsonify(entry | {"record": record, "sessions": store().sessions(name)})


@club_bp.get("/club/api/tables/<name>/changes")
def api_last_change(name: str) -> Response:
    return jsonify({"table": name, "applied_through": store().last_n(name)})


@club_bp.post("/club/api/tables/<name>/changes")
def api_push(name: str) -> Response:
    store().check_table_token(name, bearer())  # before the body is read: a wrong token costs one query
    body = json_body()
    if body.get("table", name) != name:
        raise ClubRefused("club.wrong_table", given=body.get("table"), name=name)
    changes = body.get("changes")
    if not isinstance(changes, list):
        raise ClubRefused("club.changes_list")
    return jsonify(store().push(name, bearer(), changes))


@club_bp.post("/club/api/tables/<name>/plays")
def api_enter_play(name: str) -> tuple[Response, int]:
    """A play entered on a phone at the club (the table's token): queued for the table's machine,
    which plays it into its record; the answer names the command, whose result follows."""
    if not store().table_token_ok(name, bearer()):
        raise ClubRefused("club.wrong_token", 403, name=name)
    body = json_body()
    return jsonify({"command": store().add_command(name, "play", body)}), 202


@club_bp.post("/club/api/rulings")
def api_ruling() -> tuple[Response, int]:
    """The referee's ruling on a table (the organiser's token): recorded in the table's record by
    the table's machine, shown at the table and in the room."""
    organiser_only()
    body = json_body()
    name = str(body.pop("table", ""))
    return jsonify({"command": store().add_command(name, "ruling", body)}), 202


@club_bp.get("/club/api/tables/<name>/commands")
def api_commands(name: str) -> Response:
    """The table's commands waiting (its token), and where its players sit in the round under way (``seating``:
    :meth:`ClubStore.current_seatings`, None between rounds), which the table's page shows."""
    commands = store().commands(name, bearer(), _row_id(request.args.get("after", 0, type=int)))
    return jsonify({"commands": commands, "seating": store().current_seatings(name).get(name)})


@club_bp.get("/club/api/tables/<name>/commands/<int:command_id>")
def api_command(name: str, command_id: int) -> Response:
    """A command's result; its body (the cards a phone entered) only with the table's or the organiser's token."""
    command = store().command(name, _row_id(command_id))
    if not (store().table_token_ok(name, bearer()) or store().is_organiser(bearer())):
        command.pop("body", None)
    return jsonify(command)


@club_bp.post("/club/api/tables/<name>/commands/<int:command_id>/done")
def api_command_done(name: str, command_id: int) -> Response:
    store().check_table_token(name, bearer())
    body = json_body()
    result = body.get("result")
    status = body.get("status")
    store().command_done(name, bearer(), command_id, str(result or "done"), body.get("message"),
                         status if isinstance(status, int) and not isinstance(status, bool) else None)
    return jsonify({"command": command_id, "result": result})


def _player(entry: dict[str, Any], finding: dict[str, Any]) -> str | None:
    """The name of the player a violation or a ruling is about (its seat at that table)."""
    players = (entry["summary"] or {}).get("players") or []
    seat = finding.get("seat")
    return str(players[seat]) if isinstance(seat, int) and 0 <= seat < len(players) else None


@club_bp.get("/club/api/referee")
def api_referee() -> Response:
    overview = store().overview()
    alerts = [{"table": entry["table"], **alert, "player": _player(entry, alert)} for entry in overview
              for alert in (entry["summary"] or {}).get("alerts", [])]
    rulings = [{"table": entry["table"], **ruling, "player": _player(entry, ruling)} for entry in overview
               for ruling in (entry["summary"] or {}).get("rulings", [])]
    return jsonify({"violations": alerts, "rulings": rulings})


@club_bp.post("/club/api/pairs")
def api_add_pair() -> tuple[Response, int]:
    organiser_only()
    body = json_body()
    players = body.get("players")
    if not (isinstance(players, list) and len(players) == 2):
        raise ClubRefused("club.pair_two")
    store().add_pair(str(body.get("name") or ""), str(players[0]), str(players[1]))
    return jsonify({"pair": body.get("name"), "players": players}), 201


@club_bp.get("/club/api/pairs")
def api_pairs() -> Response:
    return jsonify({"pairs": store().pairs()})


@club_bp.post("/club/api/rounds")
def api_start_round() -> tuple[Response, int]:
    organiser_only()
    body = json_body()
    result = store().start_round(seating=str(body.get("seating", "hand")), tables=body.get("tables"),
                                 ends_by=str(body.get("ends_by", "deals")), deals=body.get("deals"),
                                 minutes=body.get("minutes"), rule=str(body.get("rule", "levels")),
                                 seed=body.get("seed"), ends_itself=body.get("ends_itself") is True)
    return jsonify(result), 201


@club_bp.post("/club/api/rounds/end")
def api_end_round() -> Response:
    organiser_only()
    return jsonify({"ended": store().end_round()})


@club_bp.get("/club/api/rounds")
def api_rounds() -> Response:
    store().end_due_rounds()
    return jsonify({"rounds": store().rounds()})


def _rule() -> str:
    rule = request.args.get("rule", "levels")
    if rule not in RULES:
        raise ClubRefused("club.standings_rule", rule=rule, choices=list(RULES))
    return rule


@club_bp.get("/club/api/results")
def api_results() -> Response:
    """Each round's result at each table as the standings count it, with the director's fixes (the
    figures before each and its reason: anyone may read them, as the standings)."""
    return jsonify({"results": store().table_results()})


@club_bp.get("/club/api/standings")
def api_standings() -> Response:
    rule = _rule()
    return jsonify({"rule": rule, "standings": store().standings(rule)})


@club_bp.get("/club/standings.csv")
def standings_csv_file() -> Response:
    text = standings_csv(store().standings(_rule()))
    return Response(text, mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=standings.csv"})


@club_bp.get("/club/results.csv")
def results_csv_file() -> Response:
    """Each round's result at each table as the standings count it, with the director's fixes, as CSV."""
    store().end_due_rounds()
    return Response(results_csv(store().table_results()), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=results.csv"})


@club_bp.get("/club/standings.png")
def standings_png() -> Response:
    """The standings as a picture for the notice board, titled with the round they stand after (or
    the one under way), the rule they are ranked by and the date, in the page's language (``?lang=``)."""
    rule = _rule()
    lang = normalise_language(request.args.get("lang") or request.cookies.get("lang"))
    title = standings_title(store().last_round(), rule, lang, date.today())
    header = [translate(f"standings.{key}", lang) for key in STANDINGS_COLUMNS]
    return Response(standings_picture(store().standings(rule), title, header), mimetype="image/png")


STANDINGS_COLUMNS = ("rank", "pair", "rounds", "levels", "level_diff", "deals", "points")


def standings_title(last_round: dict[str, Any] | None, rule: str, lang: str, day: date) -> str:
    """The standings picture's title: what they are, after which round, by which rule, on which day.

    >>> standings_title({"round": 2, "ended": "2026-12-06T21:40:00"}, "levels", "zh", date(2026, 12, 6))
    '排名 · 第 2 轮后 · 按升级数 · 2026-12-06'
    >>> standings_title({"round": 3, "ended": None}, "points", "en", date(2026, 12, 6))
    'Standings · round 3 under way · by points · 2026-12-06'
    >>> standings_title(None, "deals", "en", date(2026, 12, 6))
    'Standings · no round played yet · by deals won · 2026-12-06'
    """
    if last_round is None:
        stage = translate("standings.no_round", lang)
    else:
        key = "standings.after_round" if last_round.get("ended") else "standings.during_round"
        stage = translate(key, lang, round=last_round["round"])
    ranked = translate("standings.ranked_by", lang, rule=translate(f"director.rule.{rule}", lang))
    return " · ".join((translate("standings.title", lang), stage, ranked, day.isoformat()))


@club_bp.get("/club/api/events")
def api_events() -> Response:
    """Server-sent events: every applied change (``{"table", "n"}``), round and database news;
    ``?table=NAME``: that table's changes alone (and the news)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    keepalive = float(app.config["SSE_KEEPALIVE_S"])
    lifetime = app.config.get("SSE_LIFETIME_S")
    only = request.args.get("table")
    relay = listener()  # the stream runs past the request's context
    subscription = relay.subscribe()

    def message(event: dict[str, Any]) -> dict[str, Any] | None:
        return None if only is not None and "table" in event and event["table"] != only else event

    return event_stream(lambda timeout: subscription.get(timeout=timeout),
                        close=lambda: relay.unsubscribe(subscription), message=message,
                        hello={"database": "up" if relay.up else "down", "worker": os.getpid()},
                        keepalive_s=keepalive, lifetime_s=lifetime, retry_ms=2000, numbered=False,
                        hello_event=False)


# --- the pictures ----------------------------------------------------------------------------------

FONT_PATHS = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
              "/usr/share/fonts/truetype/arphic/uming.ttc")


def standings_picture(rows: list[dict[str, Any]], title: str, header: list[str]) -> bytes:
    """The standings as a PNG for the notice board, ``title`` above the table (a CJK font where the
    system has one)."""
    from PIL import Image, ImageDraw, ImageFont

    def font_of(size: int) -> Any:
        for path in FONT_PATHS:
            try:
                return ImageFont.truetype(path, size)
            except OSError:
                continue
        return ImageFont.load_default()

    font, title_font = font_of(28), font_of(34)
    lines = [header] + [[str(r["rank"]), str(r["pair"]), str(r["rounds"]), str(r["levels_gained"]),
                         str(r["level_diff"]), str(r["deals_won"]), str(r["points"])] for r in rows]
    widths = [90, 320, 70, 100, 140, 120, 100]
    top = 80
    table_width = sum(widths) + 40
    title_width = int(ImageDraw.Draw(Image.new("RGB", (1, 1))).textlength(title, font=title_font)) + 40
    image = Image.new("RGB", (max(table_width, title_width), top + 20 + 44 * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    draw.text((20, 20), title, fill="black", font=title_font)
    for row_index, line in enumerate(lines):
        x = 20
        y = top + 20 + 44 * row_index
        if row_index == 0:
            draw.rectangle((0, y - 4, image.width, y + 38), fill="#e8eef6")
        for width, text in zip(widths, line, strict=True):
            draw.text((x, y), text, fill="black", font=font)
            x += width
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


# --- the pages ----------------------------------------------------------------------------------------
# Each a template of the club's own (club/templates) on the shared page client (web/static/client.js):
# one language at a time, the table's toggle, the words from the one catalogue (web/i18n.py).

def _page(template: str, **context: Any) -> Response:
    response = render_page(template, page="club", **context)
    response.headers["Cache-Control"] = "no-store"
    return response


@club_bp.get("/club")
def room() -> Response:
    """The room: every table's card (its players, deal, trump, points or settled total, whose turn)."""
    return _page("club_room.html", screen=False, screen_seconds=int(current_app.config["SCREEN_SECONDS"]))


@club_bp.get("/club/screen")
def screen() -> Response:
    """The projector's screen: one table's card at a time, in big type, in turn."""
    return _page("club_room.html", screen=True, screen_seconds=int(current_app.config["SCREEN_SECONDS"]))


@club_bp.get("/club/referee")
def referee_page() -> Response:
    """The referee's console: every proven violation with its evidence, by the player's name; with the
    organiser's token (``?token=…``) each offers the choice between a scorer's typo (fixed on the
    table's page, no penalty) and a player's breach: a penalty ruled (the points typed, or the rules'
    own) that goes into that table's record."""
    token = request.args.get("token")
    response = _page("club_referee.html", write_token=token if store().is_organiser(token) else None)
    response.headers["Referrer-Policy"] = "no-referrer"  # the address may hold the token
    return response


@club_bp.get("/club/standings")
def standings_page() -> Response:
    """The standings by one of the rules (``?rule=…``), with their CSV and PNG."""
    return _page("club_standings.html", rule=_rule(), rules=list(RULES))

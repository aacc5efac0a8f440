"""A table's own page at the club (``/club/table/<name>``): the live page of ``tuolaji serve``
(``web/templates/live.html`` with its page client, ``web/static/client.js``, ``live.js``,
``board.js`` …), drawn from the club's copy of the table's record.

The page's scripts address the table's API as ``/api/…``; here each of their requests is re-rooted
under ``/club/table/<name>`` (:data:`PRELUDE`, a classic script that runs before the page's
modules), where this blueprint answers:

- ``GET …/api/state``: what ``serve``'s ``/api/state`` gives (:func:`web.state.build_game_payload`
  over a :class:`~session.live.LiveGame` of the club's record: the view, the audit once, the
  pending cards), made once per change of the table;
- ``GET …/api/events``: the table's changes as server-sent events, relayed from PostgreSQL's
  LISTEN/NOTIFY (:mod:`club.notify`) in the order the club applied them, and the rounds' starts and ends
  (the state's ``club.seating``: where the table's players sit in the round under way);
- ``GET …/api/tracker``: the card tracker of the record's last deal; ``…/api/share/…``: the shared
  results' PNGs (:mod:`web.share`); ``…/api/evidence``: no pictures (they stay on the table's machine);
- ``POST …/api/play``, ``…/api/ruling`` and 只记分's ``…/api/points/trick``, ``…/points/deal``,
  ``…/points/concede`` and ``…/api/kitty`` (its points): with the table's token (the page opened once with
  ``?token=…``, kept in a cookie), a play, a ruling or a points entry queued as a command for the table's
  machine, the one writer of its record (:meth:`~club.store.ClubStore.add_command`), which reads a points
  entry as its own routes do (:mod:`web.points_entry`); the answer waits
  for the table's verdict (``CLUB_COMMAND_WAIT_S``): the table's refusal in one line, the state
  once the table's change is back, or (504) that the command waits at the club for a table's
  machine that did not answer in time. Any other change is the table's own page's to make.

Without the token the page is read-only, as ``serve``'s spectator view is: no entry form, and
every change refused.
"""

from __future__ import annotations

import hashlib
import json
import queue
import threading
import time
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlencode

from flask import Blueprint, Response, current_app, jsonify, redirect, request
from werkzeug.wrappers.response import Response as BaseResponse

from tuolaji.scorer import safejson
from tuolaji.scorer.cards import split_card_text
from tuolaji.scorer.errors import InputError
from tuolaji.session.live import LiveGame
from tuolaji.web.points_entry import ENTRIES
from tuolaji.web.sse import event_stream
from tuolaji.web.state import build_game_payload
from tuolaji.web.store import Session
from tuolaji.web.tracker import tracker_of
from tuolaji.web.view import PROFILES

from .command_queue import REFUSAL_STATUSES
from .errors import ClubDatabaseDown, ClubRefused
from .notify import Listener
from .store import ClubStore

club_table_bp = Blueprint("club_table", __name__)

serve_links_bp = Blueprint("pages", __name__)
"""The endpoints ``serve``'s page template links to (its title and navigation): at the club they
lead back to the room."""

TOKEN_COOKIE = "tuolaji_club_table_"
"""The cookie a table's token is kept in (one a table: this and the first characters of the name's digest)."""

PRELUDE = """
(() => {
  const base = %s;
  const moved = (url) => (typeof url === "string" && url.startsWith("/api/")) ? base + url : url;
  const fetchOne = window.fetch.bind(window);
  window.fetch = (url, options) => fetchOne(moved(url), options);
  const Source = window.EventSource;
  window.EventSource = class extends Source { constructor(url, options) { super(moved(url), options); } };
  const fix = (el) => ["href", "src"].forEach((attr) => {
    const value = el.getAttribute(attr);
    if (value && value.startsWith("/api/")) el.setAttribute(attr, moved(value));
  });
  new MutationObserver((changes) => changes.forEach((change) => {
    if (change.type === "attributes") { fix(change.target); return; }
    change.addedNodes.forEach((node) => {
      if (node.nodeType !== 1) return;
      fix(node);
      node.querySelectorAll("[href^='/api/'], [src^='/api/']").forEach(fix);
    });
  })).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["href", "src"] });
})();
"""
"""Re-roots the page's ``/api/…`` requests (``fetch``, ``EventSource``, and the links and pictures it
makes: the shared results' PNGs) under the table's address."""


def _club() -> ClubStore:
    from .pages import store

    return store()


def _listener() -> Listener:
    from .pages import listener

    return listener()


def _cookie(name: str) -> str:
    return TOKEN_COOKIE + hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]


def _held_token(name: str, *, header: bool = False) -> str | None:
    """The table's token this client holds, if it is right: the page's header (``header``: that
    alone, as for every change: another site's page cannot send it), or its cookie."""
    given = request.headers.get("X-Tuolaji-Token") or (None if header else request.cookies.get(_cookie(name)))
    if given and _club().table_token_ok(name, given):
        return str(given)
    return None


def _refusal(words: dict[str, str], status: int, **extra: Any) -> tuple[Response, int]:
    return jsonify({"error": words["en"], "message": {"zh": words["zh"], "en": words["en"]}, **extra}), status


def _refused(error: InputError, status: int = 400, **extra: Any) -> tuple[Response, int]:
    """An error of the club or of the rules, in both languages as serve's page words it (its key and facts)."""
    from tuolaji.web.explain import describe_error

    words = describe_error(error)
    return _refusal({"zh": words["zh"], "en": words["en"]}, status, **extra)


@club_table_bp.errorhandler(ClubRefused)
def _club_refused(error: ClubRefused) -> tuple[Response, int]:
    return _refused(error, error.status, **error.extra)


@club_table_bp.errorhandler(ClubDatabaseDown)
def _club_down(error: ClubDatabaseDown) -> tuple[Response, int]:
    return _refusal({"zh": "俱乐部数据库暂时不可用，各桌继续打牌，稍后补传", "en": str(error)}, 503)


@club_table_bp.errorhandler(InputError)
def _input_error(error: InputError) -> tuple[Response, int]:
    return _refused(error)


# --- the page --------------------------------------------------------------------------------------

@club_table_bp.get("/club/table/<name>")
def table_page(name: str) -> Response | BaseResponse:
    """The table's live page: read-only, or (the table's token held) entering plays and rulings."""
    from tuolaji.web.pages import render_page

    _club().last_n(name)  # 404 for a table the club does not know
    given = request.args.get("token")
    if given is not None and _club().table_token_ok(name, given):  # a wrong one leaves the page read-only
        args = {key: value for key, value in request.args.items() if key != "token"}
        response = redirect(request.path + (f"?{urlencode(args)}" if args else ""))
        response.set_cookie(_cookie(name), given, max_age=3600 * 24, httponly=True, samesite="Strict",
                            path="/club/table/")
        return response
    token = _held_token(name)
    base = "/club/table/" + quote(name, safe="")
    response = render_page("live.html", page="watch" if token is None else "live", watch=token is None,
                           write_token=token, table_url=None, table_qr=None)
    body = response.get_data(as_text=True)
    # the prelude first, before the page's modules (which run after the document is read)
    response.set_data(body.replace("<head>", "<head>\n<script>" + PRELUDE % json.dumps(base).replace("</", "<\\/")
                                   + "</script>", 1))
    response.headers["Cache-Control"] = "no-store"
    return response


# --- the state ---------------------------------------------------------------------------------------

class _States:
    """Per table, the state of its latest session at its last change (JSON text), made once a change."""

    def __init__(self, size: int = 128) -> None:
        self.size = size
        self._states: dict[str, tuple[tuple[Any, ...], str]] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> str:
        club = _club()
        head = club.latest_session(name)
        seating = club.current_seatings(name).get(name)  # where its players sit in the round under way
        if head is None:
            entry = club.table_overview(name)
            return json.dumps({"session": None, "feed": None, "profiles": PROFILES,
                               "club": {"table": name, "n": entry["last_n"], "refused": entry["refused"]}
                               | ({"seating": seating} if seating else {})}, ensure_ascii=False)
        with self._lock:
            cached = self._states.get(name)
        # the session, its last change and when it came (a club restored from a backup numbers changes again),
        # and the seating (a round starts or ends without a change of the table's)
        key = (head["session"], head["n"], head["updated"], str(head["refused"]), json.dumps(seating))
        if cached is not None and cached[0] == key:
            return cached[1]
        row = club.latest_session(name, with_record=True)
        assert row is not None
        state = state_of(name, row)
        if seating is not None:  # seated in the round under way
            state["club"]["seating"] = seating
        text = json.dumps(state, ensure_ascii=False)
        with self._lock:
            if len(self._states) >= self.size:
                self._states.pop(next(iter(self._states)))
            self._states[name] = (key, text)
        return text


def state_of(name: str, row: dict[str, Any]) -> dict[str, Any]:
    """What ``serve``'s ``/api/state`` gives for the club's copy of a table's session (``row``:
    :meth:`~club.store.ClubStore.latest_session` with its record), made by the same functions."""
    record = row["record"]
    updated = row["updated"].timestamp() if isinstance(row["updated"], datetime) else time.time()
    session = Session(id=int(row["session"]), name=str(row["name"]), source="club", created=updated,
                      updated=updated, record=record)
    return build_game_payload(LiveGame(record), session) | {"feed": None, "club": {"table": name, "n": int(row["n"]), "refused": row.get("refused")}}


def _states() -> _States:
    states: _States | None = current_app.extensions.get("tuolaji.club.states")
    if states is None:
        states = current_app.extensions["tuolaji.club.states"] = _States()
    return states


@club_table_bp.get("/club/table/<name>/api/state")
def api_state(name: str) -> Response:
    return Response(_states().get(name), mimetype="application/json", headers={"Cache-Control": "no-store"})


@club_table_bp.get("/club/table/<name>/api/tracker")
def api_tracker(name: str) -> Response:
    row = _club().latest_session(name, with_record=True)
    return jsonify({"tracker": tracker_of(row["record"]) if row is not None else None})


@club_table_bp.get("/club/table/<name>/api/evidence")
def api_evidence(name: str) -> Response:
    """The pictures of the plays stay on the table's machine (its camera's): none at the club."""
    head = _club().latest_session(name)
    return jsonify({"session": head["session"] if head else None, "violations": [], "pictures": []})


@club_table_bp.get("/club/table/<name>/api/share/<int:session>/deal/<int:deal>.png")
def api_share_deal(name: str, session: int, deal: int) -> Response:
    """A deal's settlement as one PNG for a phone (``serve``'s :func:`web.share.deal_card`)."""
    from tuolaji.web.share import deal_card, png_response, request_language

    record = _club().record(name, session)
    if not 0 <= deal < len(record.get("deals", [])):
        raise ClubRefused("club.no_session", 404, name=name)
    return png_response(deal_card(record, deal, _session_name(name, session), request_language()))


@club_table_bp.get("/club/table/<name>/api/share/<int:session>/levels.png")
def api_share_levels(name: str, session: int) -> Response:
    """The game's level chart as one PNG (``serve``'s :func:`web.share.levels_card`)."""
    from tuolaji.web.share import levels_card, png_response, request_language

    record = _club().record(name, session)
    if not record.get("deals"):
        raise ClubRefused("club.no_session", 404, name=name)
    return png_response(levels_card(record, _session_name(name, session), request_language()))


def _session_name(name: str, session: int) -> str:
    return next((str(s["name"]) for s in _club().sessions(name) if s["session"] == session), "")


@club_table_bp.get("/club/table/<name>/api/events")
def api_events(name: str) -> Response:
    """The table's changes as they are applied (``{"type": "state-changed", "reason": "club", "n"}``),
    its commands' results, and the database's news; the page reads the state again after each."""
    _club().last_n(name)  # 404 for a table the club does not know
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    keepalive = float(app.config["SSE_KEEPALIVE_S"])
    lifetime = app.config.get("SSE_LIFETIME_S")
    relay = _listener()
    subscription = relay.subscribe()

    def message(event: dict[str, Any]) -> dict[str, Any] | None:
        if "table" in event and event["table"] != name:
            return None
        if "n" in event:
            return {"type": "state-changed", "reason": "club", "table": name, "n": event["n"]}
        if "round" in event:  # a round started or ended: the table's seating with it
            return {"type": "state-changed", "reason": "club-round", "table": name, "round": event["round"]}
        return event

    return event_stream(lambda timeout: subscription.get(timeout=timeout),
                        close=lambda: relay.unsubscribe(subscription), message=message,
                        hello={"table": name, "database": "up" if relay.up else "down"},
                        keepalive_s=keepalive, lifetime_s=lifetime)


# --- plays and rulings entered at the club ----------------------------------------------------------

def _body() -> dict[str, Any]:
    raw = request.get_data(cache=True)
    data = safejson.loads(raw, "request body") if raw.strip() else {}
    if not isinstance(data, dict):
        raise ClubRefused("page.json_object")
    return data


def _queued(name: str, kind: str, body: dict[str, Any]) -> tuple[Response, int] | Response:
    """Queue a command for the table's machine and wait for its verdict, then for the change it made."""
    club = _club()
    wait_s = float(current_app.config.get("CLUB_COMMAND_WAIT_S", 8.0))
    relay = _listener()
    subscription = relay.subscribe()  # before the command: its result cannot pass unseen
    try:
        after = club.last_n(name)  # the table's last change before the verdict: the command's is a later one
        command_id = club.add_command(name, kind, body)
        deadline = time.monotonic() + wait_s
        result: str | None = None
        message: dict[str, str] | None = None
        status: Any = None
        changed = False
        next_look = time.monotonic() + 1.0
        while time.monotonic() < deadline and not (result is not None and (changed or not result.startswith("applied"))):
            try:
                event = subscription.get(timeout=0.2)
            except queue.Empty:
                event = {}
            if result is None and event.get("table") == name and event.get("command") == command_id \
                    and "result" in event:
                result, message, status = str(event["result"]), event.get("message"), event.get("status")
            elif event.get("table") == name and isinstance(event.get("n"), int):
                if result is None:
                    after = max(after, event["n"])  # the table's own change, before the verdict
                else:
                    changed = event["n"] > after
            elif "resync" in event or time.monotonic() >= next_look:  # a notification missed: the database says
                next_look = time.monotonic() + 1.0
                if result is None:
                    done = club.command(name, command_id)
                    if done["result"] is not None:
                        result, message, status = str(done["result"]), done.get("message"), done.get("status")
                elif club.last_n(name) > after:
                    changed = True
    finally:
        relay.unsubscribe(subscription)
    if result is None:
        # said by the form (its cards kept, the command waiting at the club all the same): the club, between the
        # phone and the table's machine, had no answer from it in time
        return _refused(ClubRefused("club.command_queued", command=command_id), 504, command=command_id, queued=True)
    if not result.startswith("applied"):
        line = result.removeprefix("refused: ")
        words = message if isinstance(message, dict) and message.get("zh") else {"zh": line, "en": line}
        # the status the table's own page answers it with (a bad entry 400, out of turn 409, not there 404);
        # a table's machine that does not say: 409, the table refused it as it stands
        return _refusal({"zh": str(words["zh"]), "en": str(words.get("en") or line)},
                        status if status in REFUSAL_STATUSES else 409, command=command_id)
    state = json.loads(_states().get(name))
    return jsonify(state | {"command": command_id})


@club_table_bp.post("/club/table/<name>/api/play")
def api_play(name: str) -> tuple[Response, int] | Response:
    """A play typed on the table's page at the club (``{"seat", "cards"}``), the table's token held."""
    if _held_token(name, header=True) is None:
        return _refused(ClubRefused("club.page_read_only"), 403)
    body = _body()
    cards = body.get("cards")
    if isinstance(cards, str):
        cards = split_card_text(cards[:2000])
    if body.get("attempt"):
        return _refused(ClubRefused("club.page_elsewhere"), 409)
    seen = {"deal": body.get("deal"), "trick": body.get("trick")} if body.get("trick") is not None else {}
    return _queued(name, "play", {"seat": body.get("seat"), "cards": cards} | seen)


@club_table_bp.post("/club/table/<name>/api/ruling")
def api_ruling(name: str) -> tuple[Response, int] | Response:
    """A penalty ruled on the table's page at the club (the rules', the points typed or a level)."""
    if _held_token(name, header=True) is None:
        return _refused(ClubRefused("club.page_read_only"), 403)
    body = _body()
    return _queued(name, "ruling", {key: body.get(key) for key in ("deal", "violation", "points", "levels")})


def _entry(name: str, kind: str) -> tuple[Response, int] | Response:
    """A 只记分 entry made on the table's page at the club, queued as :func:`_queued` queues a play: the
    fields the table's page sends (:data:`web.points_entry.ENTRIES`), read and applied by the table's
    machine as its own routes read them, so a refusal is the table's, in its words."""
    if _held_token(name, header=True) is None:
        return _refused(ClubRefused("club.page_read_only"), 403)
    body = _body()
    fields, _command_of = ENTRIES[kind]
    return _queued(name, kind, {key: body[key] for key in fields if key in body})


@club_table_bp.post("/club/table/<name>/api/points/trick")
def api_points_trick(name: str) -> tuple[Response, int] | Response:
    """A trick by its winner and points (``{"winner", "points", "deal", "trick", "last", "unit", "trump"}``)."""
    return _entry(name, "play-points")


@club_table_bp.post("/club/table/<name>/api/points/deal")
def api_points_deal(name: str) -> tuple[Response, int] | Response:
    """按一局记: the deal by the defenders' points, the last trick's winner and unit, the kitty's points."""
    return _entry(name, "settle-points")


@club_table_bp.post("/club/table/<name>/api/points/concede")
def api_points_concede(name: str) -> tuple[Response, int] | Response:
    """认输 (``{"by", "points"}``): the deal conceded by one side."""
    return _entry(name, "concede")


@club_table_bp.post("/club/table/<name>/api/kitty")
def api_kitty(name: str) -> tuple[Response, int] | Response:
    """The kitty's points (``{"points", "deal"}``); its cards are entered on the table's own page."""
    if _held_token(name, header=True) is None:
        return _refused(ClubRefused("club.page_read_only"), 403)
    if _body().get("points") is None:
        return _refused(ClubRefused("club.page_elsewhere"), 409)
    return _entry(name, "set-kitty-points")


@club_table_bp.post("/club/table/<name>/api/<path:rest>")
def api_other(name: str, rest: str) -> tuple[Response, int]:
    """Every other change (set-up, corrections, undo …): the table's own page makes it."""
    if _held_token(name, header=True) is None:
        return _refused(ClubRefused("club.page_read_only"), 403)
    return _refused(ClubRefused("club.page_elsewhere"), 409)


# --- where serve's page links to -------------------------------------------------------------------

def _to_room() -> BaseResponse:
    return redirect("/club")


for _path, _endpoint in (("/", "live"), ("/sessions", "sessions"), ("/watch", "watch"), ("/tv", "tv"),
                         ("/stats", "stats"), ("/camera", "camera")):
    serve_links_bp.add_url_rule(_path, _endpoint, _to_room)


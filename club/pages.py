"""The club's pages and JSON API (a Flask blueprint; :func:`club.create_club_app` registers it).

Who may do what: anyone may read (the room, a table, the standings); a table's machine pushes
its changes with its own token (``Authorization: Bearer <token>``); the organiser's token
registers tables, pairs and rounds. Every refusal is one line of JSON ``{"error": …}``; the
database away is 503 ``club database unavailable (…)``, and the tables keep their changes.
"""

from __future__ import annotations

import html
import io
import os
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from tuolaji.scorer import safejson
from tuolaji.scorer.errors import InputError
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
    store().command_done(name, bearer(), command_id, str(result or "done"), body.get("message"))
    return jsonify({"command": command_id, "result": result})


@club_bp.get("/club/api/referee")
def api_referee() -> Response:
    overview = store().overview()
    alerts = [{"table": entry["table"], **alert} for entry in overview
              for alert in (entry["summary"] or {}).get("alerts", [])]
    rulings = [{"table": entry["table"], **ruling} for entry in overview
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
    return Response(standings_picture(store().standings(_rule())), mimetype="image/png")


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


def standings_picture(rows: list[dict[str, Any]]) -> bytes:
    """The standings as a PNG for the notice board (a CJK font where the system has one)."""
    from PIL import Image, ImageDraw, ImageFont

    font: Any = None
    for path in FONT_PATHS:
        try:
            font = ImageFont.truetype(path, 28)
            break
        except OSError:
            continue
    if font is None:
        font = ImageFont.load_default()
    header = ["名次", "对", "轮", "升级", "级差", "胜局", "得分"]
    lines = [header] + [[str(r["rank"]), str(r["pair"]), str(r["rounds"]), str(r["levels_gained"]),
                         str(r["level_diff"]), str(r["deals_won"]), str(r["points"])] for r in rows]
    widths = [90, 320, 70, 100, 100, 100, 100]
    image = Image.new("RGB", (sum(widths) + 40, 40 + 44 * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    for row_index, line in enumerate(lines):
        x = 20
        y = 20 + 44 * row_index
        if row_index == 0:
            draw.rectangle((0, y - 4, image.width, y + 38), fill="#e8eef6")
        for width, text in zip(widths, line, strict=True):
            draw.text((x, y), text, fill="black", font=font)
            x += width
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


# --- the pages ----------------------------------------------------------------------------------------

STYLE = """
body{font-family:system-ui,"WenQuanYi Micro Hei",sans-serif;margin:1rem;background:#f6f7f9}
#banner{display:none;background:#b00020;color:white;padding:.5rem 1rem;margin-bottom:1rem}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:.8rem}
.table{background:white;border:1px solid #ccd;border-radius:.5rem;padding:.6rem;cursor:pointer;color:inherit;
text-decoration:none;display:block}
.table h2{margin:.1rem 0 .4rem;font-size:1.2rem}.alert{color:#b00020}.ruling{color:#0b5394}.muted{color:#667}
table.st{border-collapse:collapse;background:white}table.st td,table.st th{border:1px solid #ccd;padding:.3rem .6rem}
.screen .table{font-size:2.2rem}
"""

ROOM_SCRIPT = """
const esc = s => String(s ?? '').replace(/[&<>"']/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'})[c]);
function seating(t) {
  const s = t.seating;
  return s ? `<div class="seating">第 ${s.round} 轮 / round ${s.round} · 南北 / NS: <b class="ns">${esc(s.ns.players.join(' '))}</b>
    · 东西 / EW: <b class="ew">${esc(s.ew.players.join(' '))}</b></div>` : '';
}
function card(t) {
  const s = t.summary;
  const refused = t.refused ? `<div class="alert refused">⛔ 第 ${t.refused.n} 个变化被拒收，本桌的推送停在这里 /
    change ${t.refused.n} refused, the table's feed waits: ${esc(t.refused.reason)}</div>` : '';
  if (!s) return `<a class="table" data-table="${esc(t.table)}" href="/club/table/${encodeURIComponent(t.table)}">
    <h2>${esc(t.table)}</h2>${seating(t)}<div class="muted">还没有牌局 / no game yet</div>${refused}</a>`;
  const turn = s.expected_seat == null ? '—' : esc(s.players[s.expected_seat]);
  const alerts = (s.alerts.length ? `<div class="alert">⚠ ${s.alerts.length} 违规 / violations</div>` : '')
    + ((s.rulings || []).length ? `<div class="ruling">⚖ ${s.rulings.length} 裁决 / rulings</div>` : '');
  return `<a class="table" data-table="${esc(t.table)}" href="/club/table/${encodeURIComponent(t.table)}">
    <h2>${esc(t.table)}</h2>${seating(t)}
    <div>第 ${s.deal} 副 · 打 ${esc(s.level)} · 主 ${esc(s.trump)}</div>
    <div>级别 / levels: ${s.levels.map(esc).join(' ')}</div>
    <div>闲家得分 / points: <b class="points">${s.defender_points}</b> · 墩 ${s.tricks}</div>
    <div>轮到 / to play: <span class="turn">${turn}</span></div>${alerts}${refused}
    <div class="muted">#${t.last_n}</div></a>`;
}
let pending = null;
let asked = 0; // the latest read asked: an earlier one answering after it is not drawn over it
async function refresh() {
  pending = null;
  const mine = ++asked;
  try {
    const r = await fetch('/club/api/overview');
    if (!r.ok) throw new Error((await r.json()).error);
    const data = await r.json();
    if (mine !== asked) return;
    window.clubTables = data.tables;
    render(data.tables);
    const round = document.getElementById('round');
    if (round) round.textContent = !data.round ? (data.last_round ? `第 ${data.last_round.round} 轮已结束 / round ${data.last_round.round} over` : '') : `第 ${data.round.round} 轮 / round ${data.round.round} · ` + (
      data.round.ends_by === 'deals' ? `打 ${data.round.deals} 副` : `到 ${new Date(data.round.ends_at).toLocaleTimeString()} 为止`)
      + (data.round.done ? ' · 本轮结束 / round over' : '');
    document.getElementById('banner').style.display = 'none';
  } catch (e) { if (mine === asked) down(String(e.message || e)); }
}
function down(text) {
  const b = document.getElementById('banner');
  b.textContent = '俱乐部数据库暂时不可用，各桌继续打牌，稍后补传 / club database unavailable: tables keep playing ' + (text || '');
  b.style.display = 'block';
}
function later() { if (!pending) pending = setTimeout(refresh, 150); }
const events = new EventSource('/club/api/events');
events.onmessage = m => { const e = JSON.parse(m.data); if (e.database === 'down') down(''); else later(); };
refresh();
"""


def _page(title: str, body: str, script: str = "", *, css_class: str = "") -> Response:
    page = (f"<!doctype html><html lang='zh'><meta charset='utf-8'><meta name='viewport' "
            f"content='width=device-width'><title>{html.escape(title)}</title><style>{STYLE}</style>"
            f"<body class='{css_class}'><div id='banner'></div>{body}<script>{script}</script></body></html>")
    return Response(page, mimetype="text/html")


@club_bp.get("/club")
def room() -> Response:
    body = ("<h1>俱乐部 / The club</h1><p id='round'></p><p><a href='/club/screen'>投影 / screen</a> · "
            "<a href='/club/standings'>排名 / standings</a> · <a href='/club/referee'>裁判 / referee</a> · "
            "<a href='/club/director'>赛事控制台 / director's console</a></p>"
            "<div id='room' class='grid'></div>")
    script = ROOM_SCRIPT + "function render(ts){document.getElementById('room').innerHTML = ts.map(card).join('');}"
    return _page("俱乐部 / club", body, script)


@club_bp.get("/club/screen")
def screen() -> Response:
    seconds = int(current_app.config["SCREEN_SECONDS"])
    body = "<p id='round'></p><div id='room' class='grid'></div>"
    script = ROOM_SCRIPT + f"""
let shown = 0;
function render(ts) {{
  if (!ts.length) return;
  const t = ts[shown % ts.length];
  document.getElementById('room').innerHTML = card(t);
}}
setInterval(() => {{ shown += 1; if (window.clubTables) render(window.clubTables); }}, {seconds * 1000});
"""
    return _page("俱乐部 / screen", body, script, css_class="screen")


@club_bp.get("/club/referee")
def referee_page() -> Response:
    """The referee's console: every proven violation with its evidence; with the organiser's token
    (``?token=…``) a penalty is ruled against one (the points typed, or the rules' own) and goes
    into that table's record."""
    body = ("<p><a href='/club'>← 俱乐部 / club</a></p><h1>裁判 / Referee</h1><ul id='violations'></ul>"
            "<h2>裁决 / Rulings</h2><ul id='rulings'></ul>")
    script = """
const esc = s => String(s ?? '').replace(/[&<>"']/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'})[c]);
const token = new URLSearchParams(location.search).get('token');
async function rule(v, text) {
  const points = parseInt(text, 10);
  const r = await fetch('/club/api/rulings', {method: 'POST', headers: {'Content-Type': 'application/json',
    'Authorization': 'Bearer ' + token}, body: JSON.stringify({table: v.table, deal: v.deal - 1,
    violation: v.violation, points: Number.isNaN(points) ? null : points})});
  const answer = await r.json();
  if (!r.ok) { const b = document.getElementById('banner'); b.textContent = answer.error; b.style.display = 'block'; }
}
let asked = 0; // the latest read asked: an earlier one answering after it is not drawn over it
async function refresh() {
  const mine = ++asked;
  const data = await (await fetch('/club/api/referee')).json();
  if (mine !== asked) return;
  const list = document.getElementById('violations');
  list.innerHTML = data.violations.map((v, i) =>
    `<li><a href="/club/table/${encodeURIComponent(v.table)}">${esc(v.table)}</a> 第 ${v.deal} 副 第 ${v.trick + 1} 墩
     座位 ${v.seat}: ${esc(v.rule)} — ${esc(v.detail)}
     ${token ? `<input class="ruling-points" data-i="${i}" inputmode="numeric" placeholder="罚分 / points (空: 规则)">
       <button data-i="${i}">裁决 / rule</button>` : ''}</li>`
  ).join('') || '<li class="muted">没有违规 / none</li>';
  list.querySelectorAll('button').forEach(b => b.onclick = () => {
    rule(data.violations[b.dataset.i], list.querySelector(`input[data-i="${b.dataset.i}"]`).value.trim());
  });
  document.getElementById('rulings').innerHTML = data.rulings.map(r =>
    `<li class="ruling">${esc(r.table)} 第 ${r.deal} 副 座位 ${r.seat}: ${esc(r.rule)}
     ${r.levels ? '罚 ' + r.levels + ' 级' : '罚 ' + (r.points || 0) + ' 分'}</li>`).join('') || '<li class="muted">—</li>';
}
const events = new EventSource('/club/api/events');
events.onmessage = () => refresh();
refresh();
"""
    return _page("裁判 / referee", body, script)


@club_bp.get("/club/standings")
def standings_page() -> Response:
    rule = _rule()
    options = "".join(f"<a href='?rule={r}'>{r}</a> " for r in RULES)
    body = (f"<p><a href='/club'>← 俱乐部 / club</a></p><h1>排名 / Standings</h1><p>{options}· "
            f"<a href='/club/standings.csv?rule={rule}'>CSV</a> · <a href='/club/standings.png?rule={rule}'>PNG</a></p>"
            "<table class='st'><thead><tr><th>名次</th><th>对 / pair</th><th>轮</th><th>升级</th><th>级差</th>"
            "<th>胜局</th><th>得分</th></tr></thead><tbody id='standings'></tbody></table>")
    script = f"""
const esc = s => String(s ?? '').replace(/[&<>"']/g, c => ({{'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}})[c]);
let asked = 0; // the latest read asked: an earlier one answering after it is not drawn over it
async function refresh() {{
  const mine = ++asked;
  const data = await (await fetch('/club/api/standings?rule={rule}')).json();
  if (mine !== asked) return;
  document.getElementById('standings').innerHTML = data.standings.map(r =>
    `<tr><td>${{r.rank}}</td><td class="pair">${{esc(r.pair)}}</td><td>${{r.rounds}}</td><td>${{r.levels_gained}}</td>
     <td>${{r.level_diff}}</td><td>${{r.deals_won}}</td><td>${{r.points}}</td></tr>`).join('');
}}
const events = new EventSource('/club/api/events');
events.onmessage = () => refresh();
refresh();
"""
    return _page("排名 / standings", body, script)


/* The club's room (/club: every table's card) and the projector's screen (/club/screen: one table at
 * a time, in turn), from /club/api/overview, in the page's language: each card names its players,
 * the deal (局, as on the table), the trump by its suit sign, the defenders' points (once the deal is
 * settled, its total with the kitty and penalties, and no one's turn); both follow the club's news. */
import { esc, fetchJson, onLanguage, startPage, t, trumpLabel } from "./client.js";

const SCREEN = document.body.classList.contains("screen");
let data = null;
let shown = 0; // the screen's table shown

function seatingHtml(table) {
  const s = table.seating;
  if (!s) return "";
  return '<div class="seating">' + esc(t("room.seating", { round: s.round })) + " · " + esc(t("director.ns")) +
    ' <b class="ns">' + esc(s.ns.players.join(" ")) + "</b> · " + esc(t("director.ew")) + ' <b class="ew">' +
    esc(s.ew.players.join(" ")) + "</b></div>";
}

function refusedHtml(table) {
  if (!table.refused) return "";
  return '<div class="alert refused">⛔ ' + esc(t("room.refused", { n: table.refused.n, reason: table.refused.reason })) + "</div>";
}

function trumpHtml(trump) {
  if (trump == null) return esc(t("room.trump.none"));
  const red = trump === "H" || trump === "D";
  return '<span class="trump-sign' + (red ? " red" : "") + '" data-trump="' + esc(trump) + '">' + esc(trumpLabel(trump)) + "</span>";
}

function levelsHtml(s) {
  return s.players.map((name, seat) => '<span class="player-level">' + esc(name) + " " + esc(s.levels[seat]) + "</span>").join(" · ");
}

function pointsHtml(s) {
  if (s.settled && s.total_points != null) {
    return '<div class="settled-line"><span class="settled">' + esc(t("room.settled")) + "</span> · " + esc(t("room.total")) +
      ': <b class="points total">' + esc(s.total_points) + "</b></div>";
  }
  const turn = s.expected_seat == null ? "—" : s.players[s.expected_seat];
  return "<div>" + esc(t("room.points")) + ': <b class="points">' + esc(s.defender_points) + "</b> · " +
    esc(t("room.tricks.count", { n: s.tricks })) + "</div>" +
    "<div>" + esc(t("room.turn")) + ': <span class="turn">' + esc(turn) + "</span></div>";
}

function cardHtml(table) {
  const s = table.summary;
  const head = '<a class="table" data-table="' + esc(table.table) + '" href="/club/table/' + encodeURIComponent(table.table) +
    '"><h2>' + esc(table.table) + "</h2>" + seatingHtml(table);
  if (!s) return head + '<div class="muted">' + esc(t("room.no_game")) + "</div>" + refusedHtml(table) + "</a>";
  const alerts = (s.alerts.length ? '<div class="alert">⚠ ' + esc(t("room.violations", { n: s.alerts.length })) + "</div>" : "") +
    ((s.rulings || []).length ? '<div class="ruling">⚖ ' + esc(t("room.rulings", { n: s.rulings.length })) + "</div>" : "");
  return head + '<div class="players">' + esc(s.players.join(" · ")) + "</div>" +
    '<div class="deal-line"><span class="deal">' + esc(t("room.deal", { n: s.deal })) + "</span> · " +
    esc(t("room.level", { level: s.level == null ? "—" : s.level })) + " · " + esc(t("room.trump", { trump: "" })) + trumpHtml(s.trump) + "</div>" +
    '<div class="levels">' + esc(t("room.levels")) + ": " + levelsHtml(s) + "</div>" +
    pointsHtml(s) + alerts + refusedHtml(table) + '<div class="muted">#' + esc(table.last_n) + "</div></a>";
}

function roundText() {
  const round = data.round;
  if (!round) return data.last_round ? t("room.round.over", { round: data.last_round.round }) : "";
  const parts = [t("room.round", { round: round.round })];
  if (round.ends_by === "deals") parts.push(t("room.round.deals", { deals: round.deals }));
  else parts.push(t("room.round.until", { time: new Date(round.ends_at).toLocaleTimeString(document.documentElement.lang) }));
  if (round.done) parts.push(t("room.round.done"));
  return parts.join(" · ");
}

function render() {
  if (!data) return;
  document.getElementById("round").textContent = roundText();
  const tables = data.tables;
  const room = document.getElementById("room");
  if (!SCREEN) room.innerHTML = tables.map(cardHtml).join("");
  else if (tables.length) {
    if (shown >= tables.length) shown = 0;
    room.innerHTML = cardHtml(tables[shown]);
  } else room.innerHTML = "";
}

function down(up) { document.getElementById("banner").hidden = up; }

let asked = 0; // the latest read asked: an earlier one answering after it is not drawn over it
async function reload() {
  const mine = ++asked;
  try {
    const answer = await fetchJson("/club/api/overview"); // null: the club's database away (503)
    if (mine !== asked) return;
    if (!answer) { down(false); return; }
    data = answer;
    window.clubTables = data.tables;
    render();
    down(true);
  } catch (e) { if (mine === asked) down(false); }
}

let pending = null; // the club's news gathered: one read for a burst
function later() {
  if (!pending) pending = setTimeout(() => { pending = null; reload(); }, 150);
}

function nextTable() {
  shown += 1;
  render();
  setTimeout(nextTable, 1000 * Number(document.getElementById("room").dataset.screenSeconds || 10));
}

function start() {
  startPage("static");
  onLanguage(render);
  reload();
  const events = new EventSource("/club/api/events");
  events.onmessage = (message) => { if (JSON.parse(message.data).database === "down") down(false); else later(); };
  window.Tuolaji.source = events; // the page's one stream (for the tests)
  if (SCREEN) setTimeout(nextTable, 1000 * Number(document.getElementById("room").dataset.screenSeconds || 10));
}

start();

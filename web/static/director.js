/* The club's director's console (/club/director?token=…, club/director.py): pairs pasted as a list,
 * the tables with their tokens and the phones' addresses, a round started (by hand, drawn, Swiss or a
 * movement: round-robin, Howell, Mitchell)
 * and ended, the latest round's seating and each table's status. Every status and figure is the
 * server's (/club/director/api/state); the organiser's token is the page's, which client.js sends. */
import { api, esc, fieldError, language, onLanguage, page, publish, setText, startPage, t, writeToken } from "./client.js";
import { loadResults, renderResults, startResults } from "./director_results.js";
import { renderMove, startMove } from "./director_seats.js";
import { redrawClocks, setClock } from "./roundclock.js";
import { startBackup } from "./director_backup.js";

const API = "/club/director/api";
let tables = []; // each table's token, its phones' address and its QR code (/club/director/api/tables)
let handKey = ""; // the tables and pairs the hand seating's rows were drawn for: redrawn only when they change

function clock(iso) {
  return new Date(iso).toLocaleTimeString(language() === "zh" ? "zh-CN" : "en-GB", { hour: "2-digit", minute: "2-digit" });
}

function statusText(status) {
  if (status.state === "playing") {
    return status.deals ? t("director.status.playing_of", { deal: status.deal, deals: status.deals })
      : t("director.status.playing", { deal: status.deal });
  }
  if (status.state === "offline") {
    return status.since ? t("director.status.offline", { time: clock(status.since) }) : t("director.status.never");
  }
  return t("director.status." + status.state);
}

function roundText(data) {
  const current = data.round;
  if (current) {
    const line = current.ends_by === "deals" ? t("director.round.deals", { round: current.round, deals: current.deals })
      : t("director.round.until", { round: current.round, time: clock(current.ends_at) });
    return current.done ? line + " · " + t("director.round.done") : line;
  }
  if (!data.latest) return t("director.round.none");
  const how = { deals: "director.round.ended_itself", time: "director.round.ended_time" }[data.ended_how];
  return t(how || "director.round.over", { round: data.latest.round });
}

function pairHtml(side) {
  if (!side) return "—";
  return '<span class="pair">' + esc(side.pair) + "</span> <small>" + esc(side.players.join(" ")) + "</small>";
}

function roomHtml(data) {
  return data.tables.map((status) => {
    const seat = data.seating.find((s) => s.table === status.table);
    return '<tr data-table="' + esc(status.table) + '"><th scope="row">' + esc(status.table) + '</th><td class="ns">' +
      pairHtml(seat && seat.ns) + '</td><td class="ew">' + pairHtml(seat && seat.ew) + '</td><td class="status" data-state="' +
      esc(status.state) + '">' + esc(statusText(status)) + "</td></tr>";
  }).join("");
}

function pairOptions(pairs, chosen) {
  return '<option value="">' + esc(t("director.empty_seat")) + "</option>" + pairs.map((p) => '<option value="' +
    esc(p.pair) + '"' + (p.pair === chosen ? " selected" : "") + ">" + esc(p.pair + " · " + p.players.join(" ")) + "</option>").join("");
}

/* One row a table, its two pairs chosen as they were; an empty seat takes the pairs in the order registered. */
function drawHandRows(data) {
  const names = data.tables.map((s) => s.table);
  const key = JSON.stringify([names, data.pairs]);
  if (key === handKey && language() === document.getElementById("hand-rows").dataset.lang) return;
  const kept = {};
  document.querySelectorAll("#hand-rows tr").forEach((row) => {
    kept[row.dataset.table] = [row.querySelector(".ns").value, row.querySelector(".ew").value];
  });
  handKey = key;
  document.getElementById("hand-rows").dataset.lang = language();
  document.getElementById("hand-rows").innerHTML = names.map((name, i) => {
    const [ns, ew] = [0, 1].map((side) => (kept[name] && kept[name][side]) || (data.pairs[2 * i + side] || {}).pair);
    return '<tr data-table="' + esc(name) + '"><th scope="row">' + esc(name) + '</th><td><select class="ns" aria-label="' +
      esc(name + " " + t("director.ns")) + '">' + pairOptions(data.pairs, ns) + '</select></td><td><select class="ew" aria-label="' +
      esc(name + " " + t("director.ew")) + '">' + pairOptions(data.pairs, ew) + "</select></td></tr>";
  }).join("");
}

function tablesHtml() {
  if (!tables.length) return "<li>" + esc(t("director.tables.none")) + "</li>";
  return tables.map((table) => '<li data-table="' + esc(table.table) + '"><strong>' + esc(table.table) + "</strong> · " +
    esc(t("director.token")) + ' <code class="token">' + esc(table.token) + "</code><br>" + esc(t("director.address")) +
    ' <a class="address" href="' + esc(table.address) + '" target="_blank" rel="noopener noreferrer">' + esc(table.address) +
    '</a><div class="qr">' + table.qr + "</div></li>").join("");
}

function render(cause) {
  const data = page.data;
  setText("round-line", roundText(data));
  document.getElementById("end-round").hidden = !data.round;
  document.getElementById("room-rows").innerHTML = roomHtml(data);
  drawHandRows(data);
  renderMove(data);
  if (cause === "state") setClock("round-clock", data.seconds_left); else redrawClocks();
  document.getElementById("pairs").innerHTML = data.pairs.length ? data.pairs.map((p) => "<li>" + pairHtml(p) + "</li>").join("")
    : "<li>" + esc(t("director.pairs.none")) + "</li>";
  document.getElementById("table-list").innerHTML = tablesHtml();
  publish(cause);
}

let asked = 0; // the latest read asked: an earlier one answering after it is not drawn over it
async function reload() {
  const mine = ++asked;
  const data = await api(API + "/state");
  if (mine !== asked) return;
  page.data = data;
  render("state");
  await loadResults(); // each round's result at each table, fixed or as the records give it
}

async function reloadTables() {
  tables = (await api(API + "/tables")).tables;
  await reload();
}

function showForm() {
  const seating = document.getElementById("seating").value;
  document.getElementById("hand-seating").hidden = seating !== "hand";
  document.getElementById("rule-field").hidden = seating !== "swiss";
  document.getElementById("movement-help").hidden = !["roundrobin", "howell", "mitchell"].includes(seating);
  const byTime = document.getElementById("ends-by").value === "time";
  document.getElementById("deals-field").hidden = byTime;
  document.getElementById("minutes-field").hidden = !byTime;
}

async function startRound(event) {
  event.preventDefault();
  const seating = document.getElementById("seating").value;
  const body = { seating: seating, ends_by: document.getElementById("ends-by").value, rule: document.getElementById("rule").value,
    deals: Number(document.getElementById("deals").value), minutes: Number(document.getElementById("minutes").value) };
  if (seating === "hand") {
    body.tables = [...document.querySelectorAll("#hand-rows tr")].map((row) => (
      { table: row.dataset.table, ns: row.querySelector(".ns").value, ew: row.querySelector(".ew").value }))
      .filter((seat) => seat.ns && seat.ew);
  }
  try {
    await api(API + "/rounds", body, "start-error");
  } catch (e) {
    return; // the refusal is said under the form
  }
  fieldError("round-error", null);
  await reload();
}

async function endRound() {
  try {
    await api(API + "/rounds/end", {}, "round-error");
  } catch (e) { /* the refusal is said under the button, and the page reads the round again */ }
  await reload();
}

async function addPairs(event) {
  event.preventDefault();
  const text = document.getElementById("pairs-text");
  let answer;
  try {
    answer = await api(API + "/pairs", { text: text.value }, "pairs-error");
  } catch (e) {
    return; // what was pasted stays, its line named under it
  }
  text.value = "";
  await reload();
  setText("pairs-added", t("director.pairs.added", { n: answer.added }));
}

async function addTable(event) {
  event.preventDefault();
  const name = document.getElementById("table-name");
  try {
    await api(API + "/tables", { name: name.value }, "table-error");
  } catch (e) {
    return;
  }
  name.value = "";
  await reloadTables();
}

let pending = null; // the room's events gathered: one read for a burst of changes
function later() {
  if (!pending) pending = setTimeout(() => { pending = null; reload().catch(() => {}); }, 300);
}

/* A table falls offline by the clock, with no event to say so: the state is read again now and then. */
function pollState() { reload().catch(() => {}); }

function start() {
  startPage("static");
  if (!writeToken) return; // the page says the organiser's token is needed
  document.getElementById("seating").addEventListener("change", showForm);
  document.getElementById("ends-by").addEventListener("change", showForm);
  document.getElementById("round-form").addEventListener("submit", startRound);
  document.getElementById("end-round").addEventListener("click", endRound);
  document.getElementById("pairs-form").addEventListener("submit", addPairs);
  document.getElementById("tables-form").addEventListener("submit", addTable);
  startResults();
  startMove(reload);
  startBackup(reloadTables);
  onLanguage(() => { if (page.data) { render("language"); renderResults(); } });
  showForm();
  reloadTables().catch(() => {});
  const events = new EventSource("/club/api/events");
  events.onmessage = later;
  window.Tuolaji.source = events; // the page's one stream (for the tests)
  setInterval(pollState, 20000);
}

start();

/* 只记分 (points only): a table without a camera records a trick by who won it and its points (tap the
 * winner, then the points), the last trick with its winning unit, a deal by the defenders' points, and the
 * kitty by its points (认输 is concede.js's). The units a last
 * trick may have are the server's (view.points_units); what the points make is the audit's. */
import { I18N, api, esc, fieldError, page, players, showState, t } from "./client.js";
import { currentDealIndex } from "./board.js";

const QUICK = [0, 5, 10, 15, 20, 25, 30, 35, 40, 50, 60, 80, 100];
const OPEN_KEY = "tuolaji-points-open";
let winner = null;
let unit = null;
let entryAt = null; // { deal, trick } the entry in progress is for

function unitLabel(n) {
  if (n <= 3 && (n < 3 || (page.data.view.points_units || []).includes(3))) return t("points.unit_" + n);
  return t("points.unit_tractor", { n: n });
}

function radio(cls, value, picked, label, disabled) {
  return '<button type="button" role="radio" aria-checked="' + picked + '" class="' + cls + (picked ? " picked" : "") +
    '" data-value="' + value + '"' + (disabled ? " disabled" : "") + ">" + esc(label) + "</button>";
}

/* Whether the current deal still takes tricks by points: not over, not kept by its total. */
function open() {
  const d = currentDealIndex();
  const deal = page.data.state.record.deals[d];
  const dealAudit = page.data.state.audit.deals[d];
  return !(dealAudit && dealAudit.outcome != null) && deal.defender_points == null && !deal.complete;
}

export function renderPoints() {
  const box = document.getElementById("points");
  if (!box || !page.data.view) return;
  const active = open();
  box.classList.toggle("disabled", !active);
  // the score where the phone enters it (the side panel is below the fold on a phone): the server's figures
  const dealView = page.data.view.deals[currentDealIndex()];
  const toGo = dealView.to_take_over;
  document.getElementById("points-score").textContent = !active || dealView.defender_points == null ? "" :
    t("points.score", { p: dealView.defender_points }) +
    (toGo == null ? "" : " · " + (toGo > 0 ? t("score.to_go", { n: toGo }) : t("score.enough")));
  const last = document.getElementById("points-last").checked;
  const units = page.data.view.points_units || [];
  document.getElementById("points-seats").innerHTML = players().map((name, seat) =>
    radio("points-seat", seat, winner === seat, name, !active)).join("");
  const unitBox = document.getElementById("points-units");
  unitBox.hidden = !last;
  const askTrump = Boolean(page.data.view.kitty_needs_trump);  // the rules' word: the kitty ×1 unless won with trumps
  document.getElementById("points-trump-box").hidden = !last || !askTrump;
  document.getElementById("points-deal-trump-box").hidden = !askTrump;
  unitBox.innerHTML = units.map((n) => radio("points-unit", n, unit === n, unitLabel(n), !active)).join("");
  document.getElementById("points-quick").innerHTML = QUICK.map((p) => '<button type="button" class="points-add" data-points="' + p +
    '"' + (active ? "" : " disabled") + ">" + p + "</button>").join("");
  document.querySelector("#points-form button[type=submit]").disabled = !active;
  const form = document.getElementById("points-deal-form");
  const keep = [form.last_winner.value, form.unit.value];
  form.last_winner.innerHTML = players().map((name, seat) => '<option value="' + seat + '">' + esc(name) + "</option>").join("");
  form.unit.innerHTML = units.map((n) => '<option value="' + n + '">' + esc(unitLabel(n)) + "</option>").join("");
  if (keep[0]) form.last_winner.value = keep[0];
  if (keep[1]) form.unit.value = keep[1];
  form.querySelector("button[type=submit]").disabled = !active;
}

function recordTrick(points, reload) {
  const last = document.getElementById("points-last").checked;
  if (winner == null || (last && unit == null)) {
    fieldError("points-error", I18N[winner == null ? "points.pick_winner" : "points.pick_unit"]);
    return Promise.resolve();
  }
  // the trick this entry was begun for (its winner picked then): another phone's entry of it meanwhile is refused, named
  const at = entryAt || tableAt();
  const body = { winner: winner, points: points, deal: at.deal, trick: at.trick };
  if (last) { body.last = true; body.unit = unit; }
  if (last && page.data.view.kitty_needs_trump) body.trump = document.getElementById("points-trump").checked;
  return api("/api/points/trick", body, "points-error").then((data) => {
    winner = null; unit = null; entryAt = null;
    document.getElementById("points-last").checked = false;
    document.getElementById("points-trump").checked = true;
    document.querySelector("#points-form input[name=points]").value = "";
    showState(data);
  }).catch((e) => {
    if (e instanceof TypeError) return undefined;  // the server unreachable: the entry stays, to send again
    winner = null; unit = null; entryAt = null;  // refused (another phone recorded that trick): the table as it is now
    return reload();
  });
}

/* The deal and trick the table is at: the next trick to record. */
function tableAt() {
  const deals = page.data.state.record.deals;
  return { deal: deals.length - 1, trick: (deals[deals.length - 1].tricks || []).length };
}

/* ``reload``: fetch the state and draw it; ``redraw``: draw the state held again. */
export function bindPoints(reload, redraw) {
  const box = document.getElementById("points");
  if (!box) return;
  try { box.open = localStorage.getItem(OPEN_KEY) === "1"; } catch (e) { /* no storage: closed */ }
  box.addEventListener("toggle", () => { try { localStorage.setItem(OPEN_KEY, box.open ? "1" : "0"); } catch (e) { /* kept for this page */ } });
  box.addEventListener("click", (event) => {
    const seat = event.target.closest(".points-seat");
    if (seat) {
      if (winner == null) entryAt = tableAt();  // the entry begins: the trick it is for stays, whatever comes meanwhile
      winner = Number(seat.dataset.value); fieldError("points-error", null); redraw(); return;
    }
    const size = event.target.closest(".points-unit");
    if (size) { unit = Number(size.dataset.value); redraw(); return; }
    const add = event.target.closest(".points-add");
    if (add) recordTrick(Number(add.dataset.points), reload);
  });
  document.getElementById("points-last").addEventListener("change", redraw);
  document.getElementById("points-form").addEventListener("submit", (event) => {
    event.preventDefault();
    recordTrick(Number(event.target.points.value || 0), reload);
  });
  document.getElementById("points-deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target;
    const body = { defender_points: Number(f.defender_points.value), last_winner: Number(f.last_winner.value), unit: Number(f.unit.value) };
    if (f.kitty_points.value.trim()) body.kitty_points = Number(f.kitty_points.value);
    if (page.data.view.kitty_needs_trump) body.trump = f.trump.checked;
    api("/api/points/deal", body, "points-deal-error").then((data) => {
      f.defender_points.value = ""; f.kitty_points.value = ""; f.trump.checked = true;
      showState(data);
    }).catch(() => {});
  });
  document.getElementById("kitty-points-form").addEventListener("submit", (event) => {
    event.preventDefault();
    api("/api/kitty", { points: Number(event.target.points.value) }, "kitty-points-error").then((data) => {
      event.target.points.value = "";
      showState(data);
    }).catch(() => {});
  });
}

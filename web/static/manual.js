/* A play entered by hand (手动记录出牌): the seat, its cards and a failed throw's attempt. The form
 * remembers the moment it was typed for (the deal, the trick and the seat the sender saw) and sends it
 * with the play: when another phone recorded that seat meanwhile, the server refuses the play with
 * who recorded what, rather than giving the cards to the next seat. While something is typed the seat
 * stays where it was; the typed play survives a reload (sessionStorage) and an unreachable server. */
import { VOCABULARY, api, cardGridHtml, cardHtml, esc, fieldError, page, playerName, players, setText, showState, t } from "./client.js";

const STORE = "tuolaji-manual";
let manualTarget = "cards"; // the field a clicked card goes to: the cards, or the failed throw's attempt
let seen = null; // {deal, trick, seat}: what the form was typed for
let restored = false;

function form() { return document.getElementById("manual-form"); }
function typed() { const f = form(); return Boolean(f.cards.value.trim() || f.attempt.value.trim()); }

/* The deal, the trick the next play goes into, and whether the deal is over (the audit's outcome). */
function moment() {
  const deals = page.data.state.record.deals;
  const d = deals.length - 1;
  const tricks = deals[d].tricks || [];
  const last = tricks[tricks.length - 1];
  const open = last && last.points == null && last.plays.length < players().length; // 只记分: a trick by points is whole
  const audit = page.data.state.audit.deals[d];
  return { deal: d, trick: open ? tricks.length - 1 : tricks.length, over: Boolean(audit && audit.outcome) };
}

function sessionId() { return page.data.session ? page.data.session.id : null; }

function save() {
  const f = form();
  try {
    if (!typed()) { sessionStorage.removeItem(STORE); return; }
    sessionStorage.setItem(STORE, JSON.stringify({ session: sessionId(), cards: f.cards.value, attempt: f.attempt.value,
      seat: f.seat.value, seen: seen }));
  } catch (e) { /* private mode */ }
}

function restore() {
  restored = true;
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(STORE) || "null"); } catch (e) { kept = null; }
  if (!kept || kept.session !== sessionId()) return;
  const f = form();
  f.cards.value = kept.cards || "";
  f.attempt.value = kept.attempt || "";
  seen = kept.seen || null;
  if (kept.seat != null) { f.seat.value = kept.seat; f.seat.dataset.touched = "1"; }
  document.getElementById("manual").open = true;
}

/* The seat box follows the table while the form is empty; once something is typed it stays. */
export function renderManual() {
  const f = form();
  const select = f.seat;
  const keep = select.dataset.touched || typed() ? select.value : null;
  select.innerHTML = players().map((name, seat) => '<option value="' + seat + '">' + esc(name) + "</option>").join("");
  const expected = page.data.state.expected_seat;
  select.value = keep != null && keep !== "" ? keep : expected != null ? String(expected) : "0";
  if (!restored) { restore(); }
  const now = moment();
  if (!typed() || !seen) seen = { deal: now.deal, trick: now.trick, seat: Number(select.value) };
  const line = document.getElementById("manual-for");
  if (line) {
    line.classList.toggle("over", now.over);
    line.textContent = now.over ? t("manual.over") : t("manual.for", { name: playerName(Number(select.value)), trick: seen.trick + 1 });
  }
  renderManualChosen();
}

function manualField() { return document.querySelector("#manual-form input[name=" + manualTarget + "]"); }

function renderManualChosen() {
  const input = document.querySelector("#manual-form input[name=cards]");
  const names = input.value.split(/\s+/).filter((n) => VOCABULARY.cards.includes(n));
  document.getElementById("manual-chosen").innerHTML = names.map((c) => cardHtml(c, null, ["small"])).join("");
}

/* Something was typed or clicked: the moment it is for is the one shown when typing began. */
function changed() {
  fieldError("manual-error", null);
  if (page.data && page.data.state && (!seen || !typed())) {
    const now = moment();
    seen = { deal: now.deal, trick: now.trick, seat: Number(form().seat.value) };
  }
  renderManualChosen();
  save();
}

export function bindManual() {
  form().addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target;
    const body = { seat: Number(f.seat.value), cards: f.cards.value };
    if (f.attempt.value.trim()) body.attempt = f.attempt.value;
    if (seen) { body.deal = seen.deal; body.trick = seen.trick; }
    api("/api/play", body, "manual-error").then((json) => {
      f.cards.value = ""; f.attempt.value = ""; manualTarget = "cards"; delete f.seat.dataset.touched; seen = null;
      save();
      showState(json); // the table as it now is (the answer is the state): a play typed next is for it
      renderManualChosen();
    }).catch(() => {}); // refused or unreachable: the reason by the form, the typed cards kept
  });
  const grid = document.getElementById("manual-grid");
  grid.innerHTML = cardGridHtml("pick-add", null);
  grid.addEventListener("click", (event) => {
    const button = event.target.closest(".pick-add");
    if (!button) return;
    const input = manualField();
    const before = typed();
    input.value = (input.value.trim() ? input.value.trim() + " " : "") + button.dataset.card;
    if (!before) seen = null;
    changed();
  });
  ["cards", "attempt"].forEach((name) => {
    const input = document.querySelector("#manual-form input[name=" + name + "]");
    input.addEventListener("focus", () => { manualTarget = name; });
    input.addEventListener("input", changed);
  });
  document.getElementById("manual-back").addEventListener("click", () => {
    const input = manualField();
    input.value = input.value.trim().split(/\s+/).slice(0, -1).join(" ");
    changed();
  });
  document.getElementById("manual-clear").addEventListener("click", () => {
    manualField().value = "";
    changed();
  });
  form().seat.addEventListener("change", (e) => {
    e.target.dataset.touched = "1";
    if (seen) seen.seat = Number(e.target.value);
    setText("manual-for", page.data ? t("manual.for", { name: playerName(Number(e.target.value)), trick: (seen ? seen.trick : 0) + 1 }) : "");
    save();
  });
}

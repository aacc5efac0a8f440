/* The live table page (/, the referee's and the spectator's views): the state comes from /api/state;
 * live changes arrive as server-sent events from /api/events, after which the page reloads the state
 * (and always on (re)connect, so nothing is missed), draws it and tells its panels (the render event). */
import {
  I18N, api, cardGridHtml, cardHtml, cardLabel, esc, fieldError, followEvents, onLanguage, onStateAnswer, page, playerName,
  publish, setText, showState, startPage, t, words, writeToken,
} from "./client.js";
import { currentDealIndex, fresh, isUnconfirmed, renderBoard } from "./board.js";
import { bindEntry, renderEntry } from "./entry.js";
import { bindMissing, missingItemHtml } from "./missing.js";
import { bindSetup, fillProfileAbout, fillSetup, fillSetupDealers, playAgain, resetSetup } from "./setup.js";

let connected = false;
let picking = null; // the card the correction picker is open for

function render(cause) {
  const data = page.data;
  if (!data || !data.state) {
    const felt = document.getElementById("felt");
    // the first screen: where to begin, one tap away (the set-up, or a game kept before)
    if (felt) {
      const nav = document.querySelector('a[data-i18n="nav.sessions"]');
      felt.innerHTML = '<p class="empty">' + esc(t("session.none")) + '</p><p class="first-steps">' +
        '<a id="first-setup" href="#setup">' + esc(t("first.setup")) + '</a>' + (nav ? ' · <a id="first-sessions" href="' +
        esc(nav.getAttribute("href")) + '">' + esc(t("first.sessions")) + "</a>" : "") + "</p>";
      felt.querySelector("#first-setup").addEventListener("click", (event) => {
        event.preventDefault();
        const setup = document.getElementById("setup");
        setup.open = true;
        setup.scrollIntoView({ block: "start" });
        const first = setup.querySelector("input, select");
        if (first) first.focus();
      });
    }
    setText("session-name", "");
    renderFeed();
    fillSetup();
    document.getElementById("setup").open = true;
    publish(cause);
    return;
  }
  if (renderBoard()) {
    const deal = data.state.record.deals[currentDealIndex()];
    renderPending();
    renderEntry(deal);
    renderUndo();
    renderFeed();
    fillSetup();
  }
  publish(cause);
}

async function reload() {
  page.data = await api("/api/state");
  render("state");
}

/* A change's answer, the table's state after it, drawn without fetching it again (an answer older than
   the state drawn meanwhile is dropped; an answer that is no state, as a club's queued play, reloads). */
function show(data) {
  if (!data || !data.state) return reload();
  const held = page.data && page.data.version;
  const got = data.version;
  if (held && got && held[0] === got[0] && got[1] < held[1]) return Promise.resolve();
  page.data = data;
  render("state");
  return Promise.resolve();
}
onStateAnswer(show);

function renderPending() {
  const pending = page.data.state.pending || [];
  document.getElementById("pending").innerHTML = pending.length ? pending.map((p) => p.missing ? missingItemHtml(p) :
    '<li class="pending-item" data-deal="' + p.deal + '" data-trick="' + p.trick + '" data-seat="' + p.seat + '" data-index="' +
    p.index + '"><span>' + esc(t("pending.item", { trick: p.trick + 1, name: playerName(p.seat), index: p.index + 1 })) + "</span> " +
    (p.card ? cardHtml(p.card, { deal: p.deal, trick: p.trick, seat: p.seat, index: p.index }, ["small", "unconfirmed"]) : "") +
    ' <button type="button" class="confirm-btn">' + esc(t("action.confirm")) + "</button></li>").join("") :
    '<li class="none">' + esc(t("pending.none")) + "</li>";
}

function renderUndo() {
  const h = page.data.view.history;
  [["undo", h && h.undo], ["redo", h && h.redo]].forEach(([id, what]) => {
    const button = document.getElementById(id);
    if (!button) return;
    button.disabled = !what;
    button.dataset.change = what ? what.change : "";
    button.querySelector(".what").textContent = what ? t("undo.what", { what: words(what.words) }) : "";
  });
}

/* The connection line (live or lost, and what feeds the table) and the session's source line. */
function renderFeed() {
  const el = document.getElementById("connection");
  if (!el) return;
  const data = page.data;
  const feed = data && data.feed;
  let text = connected ? t("conn.live") : t("conn.lost");
  const session = data && data.session;
  const ours = feed && session && feed.session === session.id; // a feed only ever writes into its own session
  if (feed && ours) {
    if (feed.error) text += " · " + t("feed.error") + ": " + feed.error;
    else if (feed.running) text += " · " + t(feed.source === "demo" ? "source.demo" : feed.kind === "pipeline" ? (feed.source === "video" ? "feed.video" : "feed.pipeline") : "feed.record") + (feed.detail ? " " + feed.detail : "")
      + (feed.warning ? " · " + t("feed.warning." + feed.warning) : "");
    else if (feed.finished) text += " · " + t(feed.source === "demo" ? "feed.demo_done" : "feed.done");
  }
  el.textContent = text;
  el.classList.toggle("lost", !connected);
  renderFeedWarning(feed && ours && feed.running ? feed.warning : null);
  const line = document.getElementById("source-line");
  if (!line) return;
  if (!session) { line.textContent = ""; return; }
  const source = I18N["source." + session.source] ? t("source." + session.source) : session.source;
  let said = t("source.line", { source: source });
  if (ours && feed.finished && !feed.error && feed.source === "demo") said += " · " + t("feed.demo_done");
  if (feed && !ours && feed.running) said += " · " + t("source.elsewhere", { feed: t("source." + (feed.source || "record")),
    name: "#" + feed.session });
  line.textContent = said;
  line.dataset.source = session.source;
}

/* What the reader warns of while it reads (cards it cannot read), over the felt where the players look. */
function renderFeedWarning(warning) {
  const banner = document.getElementById("feed-warning");
  if (!banner) return;
  banner.hidden = !warning;
  banner.querySelector(".what").textContent = warning ? t("feed.warning." + warning) : "";
  banner.dataset.warning = warning || "";
}

function connect() {
  followEvents(reload, {
    onConnection: (up) => { connected = up; renderFeed(); },
    onEvent: (event) => {
      if (event.type === "play-settled") fresh.play = { deal: event.deal, trick: event.trick, seat: event.seat };
      if (event.type === "violation-found") fresh.violations.add([event.deal, event.trick, event.seat, event.rule].join(":"));
      if (event.type === "state-changed" && event.reason === "session") resetSetup();
    },
  });
}

// --- the card picker (corrections and confirmations) ---------------------------------------
function openPicker(where) {
  const trick = page.data.state.record.deals[where.deal].tricks[where.trick];
  const unconfirmed = isUnconfirmed(trick, where.seat, where.index);
  picking = where;
  const dialog = document.getElementById("picker");
  document.getElementById("picker-title").textContent = t("picker.title", { trick: where.trick + 1, name: playerName(where.seat),
    index: where.index + 1, card: cardLabel(where.card) });
  document.getElementById("picker-note").hidden = !unconfirmed;
  document.getElementById("picker-grid").innerHTML = cardGridHtml("pick", where.card);
  document.getElementById("picker-input").value = "";
  fieldError("picker-error", null);
  dialog.showModal();
  const current = dialog.querySelector(".pick.current");
  (current || dialog.querySelector(".pick")).focus();
}

/* A typed card is read by the server (the scorer's one card parser: 红桃10, ♠A, 10H, 大王); a refused one
   keeps the dialog open with the reason next to the field. */
async function submitCorrection(card) {
  const where = picking;
  let answer;
  try {
    answer = await api("/api/correct", { deal: where.deal, trick: where.trick, seat: where.seat, index: where.index, card: card }, "picker-error");
  } catch (e) {
    document.getElementById("picker-input").focus();
    return;
  }
  document.getElementById("picker").close();
  picking = null;
  showState(answer);
}

async function confirmCard(where) {
  showState(await api("/api/confirm", { deal: where.deal, trick: where.trick, seat: where.seat, index: where.index }));
}

function whereOf(el) {
  return { deal: Number(el.dataset.deal), trick: Number(el.dataset.trick), seat: Number(el.dataset.seat),
    index: Number(el.dataset.index), card: el.dataset.card };
}

function bindPicker() {
  document.getElementById("picker-confirm").addEventListener("click", () => {
    const where = picking;
    const input = document.getElementById("picker-input").value.trim();
    if (input) { submitCorrection(input).catch(() => {}); return; }
    document.getElementById("picker").close();
    picking = null;
    confirmCard(where).catch(() => {});
  });
  document.getElementById("picker-input").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (event.target.value.trim()) submitCorrection(event.target.value.trim()).catch(() => {});
  });
  document.getElementById("picker-grid").addEventListener("keydown", (event) => {
    const buttons = Array.from(document.querySelectorAll("#picker .pick"));
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 13, ArrowUp: -13 }[event.key];
    if (step) { event.preventDefault(); buttons[Math.max(0, Math.min(buttons.length - 1, i + step))].focus(); }
  });
}

/* A penalty for a violation of the settled deal: the rules' (one click), the organiser's own points or a level; or taken back. */
async function rule(button) {
  const d = Number(button.closest(".rulings").dataset.deal);
  if (button.classList.contains("ruling-remove")) {
    showState(await api("/api/ruling/remove", { deal: d, ruling: Number(button.dataset.ruling) }));
    return;
  }
  const item = button.closest(".ruling-item");
  const body = { deal: d, violation: Number(item.dataset.violation) };
  if (button.classList.contains("ruling-level")) body.levels = 1;
  if (button.classList.contains("ruling-own")) {
    const input = item.querySelector(".ruling-points");
    const points = Number(input.value);
    if (!Number.isInteger(points) || points <= 0) { input.setAttribute("aria-invalid", "true"); input.focus(); return; }
    body.points = points;
  }
  showState(await api("/api/ruling", body));
}

function bindClicks() {
  document.addEventListener("click", (event) => {
    const cardButton = event.target.closest("button.card[data-trick]");
    if (cardButton && !cardButton.closest("#picker")) { if (writeToken) openPicker(whereOf(cardButton)); return; }
    const pick = event.target.closest("#picker .pick");
    if (pick) { submitCorrection(pick.dataset.card).catch(() => {}); return; }
    const confirmButton = event.target.closest(".confirm-btn");
    if (confirmButton) { confirmCard(whereOf(confirmButton.closest(".pending-item"))).catch(() => {}); return; }
    if (event.target.closest("#play-again")) { playAgain().then(reload).catch(() => {}); return; }
    const ruling = event.target.closest(".ruling-offer, .ruling-own, .ruling-level, .ruling-remove");
    if (ruling) rule(ruling).catch(() => {});
  });
  document.getElementById("undo").addEventListener("click", () => { api("/api/undo", {}).then(showState).catch(() => {}); });
  document.getElementById("redo").addEventListener("click", () => { api("/api/redo", {}).then(showState).catch(() => {}); });
}

startPage("live");
onLanguage(() => {
  fillSetupDealers();
  fillProfileAbout().catch(() => {});
  if (page.data) render("language");
});
bindClicks();
bindPicker();
bindEntry(reload, () => render("state"));
bindMissing();
bindSetup(reload);
reload().catch(() => {});
connect();

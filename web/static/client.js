/* The page client's shared module: the words (the server's strings and card vocabulary), the
 * language, the table's token, the one api() with its error display, and the render event the
 * panels subscribe to. Every page's script (live.js, replay.js, sessions.js, camera.js) and every
 * panel (tracker.js, evidence.js, share.js) imports it; none of them knows a rule of the game:
 * what the rules say comes from the server (the state, its audit and view, the set-up data). */

function readJson(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : {};
}

export const I18N = readJson("i18n");
export const PROFILES = readJson("profiles"); // per profile: decks, player counts, and per count the sides and friends
export const VOCABULARY = readJson("cards"); // the scorer's card names, with their display words (web/pages.py)
export const CARD_NAMES = VOCABULARY.cards || [];
export const LEVELS = VOCABULARY.ranks || [];
export const SUIT_SYMBOL = VOCABULARY.symbols || {};

/* What the page shows and how: ``mode`` is "live", "replay" or "static"; ``data`` the last state payload;
   ``replay`` the replay's steps and the step shown (replay.js keeps it). */
export const page = { mode: "static", data: null, replay: null };

let lang = document.documentElement.dataset.lang || "zh";
export function language() { return lang; }

// --- words ------------------------------------------------------------------------------------
export function t(key, vars) {
  const entry = I18N[key];
  let text = entry ? entry[lang] || entry.zh : key;
  if (vars) for (const [k, v] of Object.entries(vars)) text = text.split("{" + k + "}").join(String(v));
  return text;
}

export function has(key) { return Boolean(I18N[key]); }

/* A {zh, en} text from the server in the page's language. */
export function words(text) { return text ? text[lang] || text.zh : ""; }

export function applyI18n(root) {
  const scope = root || document;
  scope.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  scope.querySelectorAll("[data-i18n-aria-label]").forEach((el) => el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel)));
  scope.querySelectorAll("[data-i18n-placeholder]").forEach((el) => el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder)));
}

export function esc(value) {
  return String(value == null ? "" : value).replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/* A card's display words (♠A, ♥10, 小王 / small joker): the server's, in the page's language. */
export function cardLabel(name) {
  const labels = VOCABULARY.labels || {};
  return (labels[lang] || labels.zh || {})[name] || name;
}

export function suitLabel(suit) { return SUIT_SYMBOL[suit] || suit; }
export function trumpLabel(trump) { return trump === "NT" ? t("trump.NT") : suitLabel(trump); }
export function profileLabel(name) { return has("profile." + name) ? t("profile." + name) : name; }

export function cardSvg(name) {
  return '<svg class="card-img" viewBox="0 0 200 280" aria-hidden="true"><use href="#card-' + esc(name) + '"/></svg>';
}

/* One card: a button (corrections) on the live page when ``where`` places it, a plain figure otherwise. */
export function cardHtml(name, where, extra) {
  const classes = ["card"].concat(extra || []);
  const label = cardLabel(name);
  if (where && page.mode === "live") {
    return '<button type="button" class="' + classes.join(" ") + '" data-card="' + esc(name) + '" data-deal="' +
      where.deal + '" data-trick="' + where.trick + '" data-seat="' + where.seat + '" data-index="' + where.index +
      '" aria-label="' + esc(label + " — " + t("action.correct")) + '">' + cardSvg(name) + "</button>";
  }
  return '<span class="' + classes.join(" ") + '" data-card="' + esc(name) + '" role="img" aria-label="' +
    esc(label) + '">' + cardSvg(name) + "</span>";
}

/* The 54 cards as buttons: the correction picker's grid, and the manual entry's. */
export function cardGridHtml(cls, current) {
  return CARD_NAMES.map((c) => '<button type="button" class="card ' + cls + (c === current ? " current" : "") + '" data-card="' + c +
    '" aria-label="' + esc(cardLabel(c)) + '">' + cardSvg(c) + "</button>").join("");
}

export function setText(id, text) {
  const el = document.getElementById(id);
  if (el) el.textContent = text;
}

export function formatTime(el) {
  const ts = Number(el.dataset.ts);
  if (ts) el.textContent = new Date(ts * 1000).toLocaleString(lang === "zh" ? "zh-CN" : "en-GB");
}

// --- the record's names -------------------------------------------------------------------------
export function players() { return page.data && page.data.state ? page.data.state.record.players : []; }
export function playerName(seat) { return players()[seat] != null ? players()[seat] : "#" + seat; }

// --- talking to the server ----------------------------------------------------------------------
// The table's token (only in a page that may write): sent with every change; without it the page is read-only.
const tokenMeta = document.querySelector('meta[name="tuolaji-token"]');
export const writeToken = tokenMeta ? tokenMeta.content : null;

let lastError = null; // {zh, en} of the last failed request, shown in the page's language
let changesInFlight = 0; // the page's own changes sent and not yet answered (their answers are states)
const fieldMessages = {}; // id -> {zh, en}: redrawn in the other language by the toggle

function showError() {
  const error = document.getElementById("error");
  if (error && lastError) error.textContent = t("error.title") + t("alerts.colon") + words(lastError);
}

export function fieldError(id, message) {
  fieldMessages[id] = message;
  const el = document.getElementById(id);
  if (!el) return;
  el.hidden = !message;
  el.textContent = message ? words(message) : "";
  const form = el.closest("form");
  if (form) form.querySelectorAll("input[aria-describedby='" + id + "']").forEach((input) => {
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  });
}

/* GET (no body) or POST a JSON body, the page's token with either (the club's director reads with it
   too); a refusal shows in the page's error line, or next to the field whose error line is ``field``,
   in both languages as the server words it. */
export async function api(path, body, field) {
  const headers = { "Content-Type": "application/json" };
  if (writeToken) headers["X-Tuolaji-Token"] = writeToken;
  const options = body === undefined ? { headers: writeToken ? { "X-Tuolaji-Token": writeToken } : {} }
    : { method: "POST", headers: headers, body: JSON.stringify(body) };
  const error = document.getElementById("error");
  let response;
  if (body !== undefined) changesInFlight += 1;
  try {
    response = await fetch(path, options);
  } catch (e) { // the server unreachable: said next to the field (what was typed stays), else on the error line
    const message = I18N["error.unreachable"];
    if (field) fieldError(field, message);
    else { lastError = message; if (error) { showError(); error.hidden = false; } }
    if (body !== undefined) changesInFlight -= 1;
    throw e;
  }
  const json = await response.json().catch(() => ({})).finally(() => { if (body !== undefined) changesInFlight -= 1; });
  if (!response.ok) {
    const message = json.message || { zh: json.error || String(response.status), en: json.error || String(response.status) };
    if (field) fieldError(field, message);
    else { lastError = message; if (error) { showError(); error.hidden = false; } }
    throw new Error(json.error || String(response.status));
  }
  if (field) fieldError(field, null);
  if (error) error.hidden = true;
  return json;
}

/* A GET whose refusal is no error of the page's (a panel's optional figures): null then. */
export async function fetchJson(path) {
  const response = await fetch(path);
  return response.ok ? response.json() : null;
}

// --- the render event -------------------------------------------------------------------------
/* The page draws a state, then tells its panels: ``onRender(fn)`` calls ``fn({data, cause})`` after
   every render ("state": a new state or step; "language": the same state in the other language).
   A panel that subscribes after the first render is called at once with the latest. */
const renderers = [];
let lastRender = null;
let renderCount = 0;

export function onRender(fn) {
  renderers.push(fn);
  if (lastRender) fn(lastRender);
}

export function publish(cause) {
  renderCount += 1;
  document.body.dataset.renders = String(renderCount);
  lastRender = { data: page.data, cause: cause || "state" };
  window.Tuolaji.state = page.data;
  for (const fn of renderers) {
    try { fn(lastRender); } catch (e) { console.error(e); } // one broken panel never stops the others
  }
}

// --- changes and the server's events -------------------------------------------------------------
/* What a page does with a state the server answered (live.js: draw it); ``showState`` below. */
let stateShown = null;
export function onStateAnswer(fn) { stateShown = fn; }

/* Draw ``data``, the table's state a change was answered with (every change's answer is the state
   after it): no fetch of the state follows, and its events fetch nothing the page already holds. */
export function showState(data) {
  if (stateShown) stateShown(data);
  return data;
}

/* True when the page already holds the state an event tells of (the answer to its own change). */
function alreadyShown(event) {
  const held = page.data && page.data.version;
  const told = event.version;
  return Boolean(held && told && held[0] === told[0] && told[1] <= held[1]);
}

/* Follow the table's event stream: ``reload()`` once connected and (gathered, 60 ms after the first)
   after every event but those of a state the page holds; ``onEvent(event)`` sees each event first,
   ``onConnection(up)`` each change of the connection. The one stream of a page (window.Tuolaji.source,
   for the tests). */
export function followEvents(reload, { onEvent = null, onConnection = null } = {}) {
  let timer = null;
  let heard = []; // the events since the last fetch was scheduled
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      // the page's own change may be answered yet (its events come first): its answer is the state
      if (changesInFlight > 0) { schedule(); return; }
      const told = heard;
      heard = [];
      if (!told.every(alreadyShown)) reload().catch(() => {});
    }, 60);
  };
  const source = new EventSource("/api/events");
  source.onopen = () => { if (onConnection) onConnection(true); reload().catch(() => {}); };
  source.onerror = () => { if (onConnection) onConnection(false); };
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (onEvent) onEvent(event);
    if (alreadyShown(event)) return;
    heard.push(event);
    schedule();
  };
  window.Tuolaji.source = source;
  return source;
}

// --- the language -------------------------------------------------------------------------------
const languageListeners = [];
/* ``fn()`` after the language changed and the static words were redrawn (a page redraws its own). */
export function onLanguage(fn) { languageListeners.push(fn); }

export function setLanguage(next) {
  lang = next;
  document.documentElement.dataset.lang = lang;
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.cookie = "lang=" + lang + "; path=/; max-age=31536000; samesite=lax";
  try { localStorage.setItem("tuolaji-lang", lang); } catch (e) { /* private mode */ }
  applyI18n();
  showError();
  Object.keys(fieldMessages).forEach((id) => fieldError(id, fieldMessages[id]));
  document.querySelectorAll("[data-seat-label]").forEach((el) => { el.textContent = t("setup.player", { n: el.dataset.seatLabel }); });
  document.querySelectorAll("time.ts").forEach(formatTime);
  for (const fn of languageListeners) fn();
}

/* What every page does: the language toggle (its button and the L key), the language a visitor chose
   before (kept in the browser when no cookie says it), the times in the visitor's locale. */
export function startPage(mode) {
  page.mode = mode;
  const toggle = () => setLanguage(lang === "zh" ? "en" : "zh");
  document.getElementById("lang-toggle").addEventListener("click", toggle);
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest("input, select, textarea, dialog");
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "l" || event.key === "L") { event.preventDefault(); toggle(); }
  });
  let stored = null;
  try { stored = localStorage.getItem("tuolaji-lang"); } catch (e) { /* private mode */ }
  const cookie = document.cookie.match(/(?:^|; )lang=(zh|en)/);
  if (!cookie && stored && stored !== lang) setLanguage(stored);
  document.querySelectorAll("time.ts").forEach(formatTime);
}

window.Tuolaji = { state: null, t: t, renders: () => renderCount };

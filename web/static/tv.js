/* The table's TV (/tv): one big screen for the table. What it draws and says is the server's
 * (/api/tv, web/tv.py): the big score, whose turn, the trick on the felt and the one before it,
 * the alerts and the calls (「毙了」「抠底 ×4」「闲家上台」「老李 未跟花色」). Live changes arrive as
 * server-sent events from /api/events, after which the page asks again (and always on
 * (re)connect), draws and tells its panels (the render event). A call new since the page opened
 * is shown and, with 朗读 on, read aloud by the browser's speech synthesis in the page's language. */
import {
  api, cardHtml, esc, followEvents, language, onLanguage, page, publish, setText, startPage, t, trumpLabel, words,
} from "./client.js";

const SPEECH_KEY = "tuolaji-tv-speech";
const synth = window.speechSynthesis || null;
let speaking = false;
let heard = null; // the ids of the calls seen (said or there when the page opened); null before the first state
let heardSession = null;
let lastCall = null;
let showLast = false;

function trickHtml(trick) {
  if (!trick || (!trick.plays.length && trick.winner == null)) return '<p class="empty">' + esc(t("tv.no_trick")) + "</p>";
  return '<ol class="tv-plays">' + trick.plays.map((play) =>
    '<li class="tv-play' + (play.winner ? " winner" : "") + '" data-seat="' + play.seat + '"><span class="tv-name">' +
    esc(play.name) + '</span><span class="tv-cards">' + play.cards.map((card) => cardHtml(card)).join("") + "</span></li>").join("") +
    "</ol>" + (trick.winner != null ? '<p class="tv-won">' + esc(t("tv.won_by", { name: trick.winner_name, points: trick.points || 0 })) +
    (trick.trumped ? ' <span class="badge trumped">' + esc(t("trick.trumped")) + "</span>" : "") + "</p>" : "");
}

function drawScore(tv) {
  const label = document.getElementById("tv-score-label");
  label.dataset.i18n = tv && tv.score.settled ? "tv.score_settled" : "tv.score";
  label.textContent = t(label.dataset.i18n);
  const points = tv && tv.score.points != null ? String(tv.score.points) : "–";
  const out = document.getElementById("tv-points");
  if (out.textContent !== points) {
    out.textContent = points;
    out.classList.remove("bump");
    void out.offsetWidth; // restart the animation
    out.classList.add("bump");
  }
  out.dataset.settled = tv && tv.score.settled ? "true" : "false";
  setText("tv-threshold", tv && tv.score.threshold != null ? t("tv.threshold", { n: tv.score.threshold }) : "");
  const toGo = tv ? tv.to_take_over : null;
  setText("tv-to-take-over", toGo == null ? "" : toGo > 0 ? t("score.to_go", { n: toGo }) : t("score.enough"));
  setText("tv-points-out", tv && tv.points_out != null ? t("score.out", { n: tv.points_out }) : "");
  setText("tv-defenders", tv && tv.defenders.length ? t("tv.defenders", { names: tv.defenders.join(" ") }) : "");
  setText("tv-next-dealer", tv && tv.next_dealer ? t("tv.next_dealer", { name: tv.next_dealer }) : "");
}

function drawDeal(tv) {
  const el = document.getElementById("tv-deal");
  if (!tv) { el.textContent = t("tv.no_game"); return; }
  el.textContent = [t("deal.n", { n: tv.deal + 1 }), t("deal.level") + " " + tv.level, t("deal.trump") + " " + trumpLabel(tv.trump),
    t("deal.dealer") + " " + tv.dealer.name].join(" · ");
}

function drawFelt(tv) {
  document.getElementById("tv-felt").innerHTML = trickHtml(tv && tv.felt);
  setText("tv-felt-trick", tv && tv.felt ? t("tv.trick", { n: tv.felt.trick + 1 }) : "");
  const toggle = document.getElementById("tv-last-toggle");
  const last = document.getElementById("tv-last");
  const has = Boolean(tv && tv.last);
  toggle.disabled = !has;
  const open = has && showLast;
  toggle.setAttribute("aria-expanded", String(open));
  toggle.dataset.i18n = open ? "tv.last_hide" : "tv.last";
  toggle.textContent = t(toggle.dataset.i18n);
  last.hidden = !open;
  last.innerHTML = open ? '<h3 class="tv-last-title">' + esc(t("tv.trick", { n: tv.last.trick + 1 })) + "</h3>" + trickHtml(tv.last) : "";
}

function draw() {
  const tv = page.data ? page.data.tv : null;
  drawDeal(tv);
  drawScore(tv);
  const turn = document.getElementById("tv-turn");
  turn.textContent = !tv ? "" : tv.turn ? tv.turn.name : t("tv.turn_none");
  turn.dataset.seat = tv && tv.turn ? String(tv.turn.seat) : "";
  drawFelt(tv);
  const alerts = tv ? tv.alerts : [];
  document.getElementById("tv-alerts").innerHTML = alerts.length ?
    alerts.map((a) => '<li class="alert violation">' + esc(words(a)) + "</li>").join("") :
    '<li class="none">' + esc(t("tv.alerts_none")) + "</li>";
  setText("tv-call", lastCall ? words(lastCall) : "");
  setText("tv-outcome", tv && tv.outcome ? words(tv.outcome) : "");
  setText("tv-levels", tv && tv.levels.length ? t("tv.levels") + t("alerts.colon") + tv.levels.map((s) => s.name + " " + s.level).join(" · ") : "");
}

// --- the calls, read aloud ------------------------------------------------------------------
/* The browser's voice for the language (zh-CN first, then any Chinese one; en-GB, then any English one). */
function voiceFor(tag) {
  const voices = typeof synth.getVoices === "function" ? synth.getVoices() : [];
  return voices.find((v) => v.lang === tag) || voices.find((v) => v.lang && v.lang.startsWith(tag.slice(0, 2))) || null;
}

function say(call) {
  if (!synth || !speaking || !call) return;
  const utterance = new SpeechSynthesisUtterance(words(call));
  utterance.lang = language() === "zh" ? "zh-CN" : "en-GB";
  const voice = voiceFor(utterance.lang);
  if (voice) utterance.voice = voice;
  synth.speak(utterance);
}

/* The calls not heard before: shown, and said when 朗读 is on. Those there when the page opened
   (or the session changed) are taken as heard: the TV says what happens, not the game's past. */
function announce() {
  const tv = page.data ? page.data.tv : null;
  const calls = tv ? tv.announcements : [];
  const session = page.data && page.data.session ? page.data.session.id : null;
  if (heard === null || session !== heardSession) {
    heard = new Set(calls.map((call) => call.id));
    heardSession = session;
    lastCall = null;
    return;
  }
  for (const call of calls) {
    if (heard.has(call.id)) continue;
    heard.add(call.id);
    lastCall = call;
    say(call);
  }
  document.getElementById("tv-again").disabled = !lastCall || !speaking;
}

function setSpeaking(on) {
  speaking = Boolean(on && synth);
  const button = document.getElementById("tv-speech");
  button.setAttribute("aria-pressed", String(speaking));
  button.dataset.i18n = speaking ? "tv.speech_on" : "tv.speech_off";
  button.textContent = t(button.dataset.i18n);
  document.getElementById("tv-again").disabled = !lastCall || !speaking;
  if (!speaking && synth) synth.cancel();
  try { localStorage.setItem(SPEECH_KEY, speaking ? "on" : "off"); } catch (e) { /* private mode */ }
}

// --- the state and the event stream ---------------------------------------------------------
function render(cause) {
  if (cause === "state") announce();
  draw();
  publish(cause);
}

async function reload() {
  page.data = await api("/api/tv");
  render("state");
}

function connect() {
  const line = document.getElementById("connection");
  followEvents(reload, {
    onConnection: (up) => { line.textContent = t(up ? "conn.live" : "conn.lost"); line.classList.toggle("lost", !up); },
  });
}

function start() {
  startPage("tv");
  document.getElementById("tv-speech-note").hidden = Boolean(synth);
  document.getElementById("tv-speech").disabled = !synth;
  let stored = null;
  try { stored = localStorage.getItem(SPEECH_KEY); } catch (e) { /* private mode */ }
  setSpeaking(stored === "on");
  document.getElementById("tv-speech").addEventListener("click", () => setSpeaking(!speaking));
  document.getElementById("tv-again").addEventListener("click", () => say(lastCall));
  document.getElementById("tv-last-toggle").addEventListener("click", () => { showLast = !showLast; draw(); });
  onLanguage(() => {
    const line = document.getElementById("connection");
    line.textContent = t(line.classList.contains("lost") ? "conn.lost" : "conn.live");
    if (page.data) render("language");
  });
  connect();
}

start();

/* The replay viewer (/replay/<id>): the timeline of a stored session's plays, step by step from
 * /api/replay/<id>/at/<step>, drawn as the live table draws a state (board.js); the slider, the
 * keys, a jump to any deal's trick and playing at a chosen speed. The step shown is in the address
 * (#step) and in page.replay, for the panels (the tracker, the video's frame). */
import { api, esc, onLanguage, page, publish, startPage, t } from "./client.js";
import { renderBoard } from "./board.js";

const layout = document.querySelector(".layout");
const sessionId = Number(layout.dataset.session);
const replay = { steps: [], step: 0, total: 0 };
let playing = null; // the timer of the next step while playing
let speed = 1;

function render(cause) {
  renderBoard();
  publish(cause);
}

async function go(step) {
  step = Math.max(0, Math.min(replay.total, step));
  replay.step = step;
  const payload = await api("/api/replay/" + sessionId + "/at/" + step);
  if (step !== replay.step) return; // a later request won
  page.data = payload;
  document.getElementById("timeline").value = String(step);
  document.getElementById("step-label").textContent = t("replay.step", { n: step, total: replay.total });
  history.replaceState(null, "", "#" + step);
  render("state");
}

function setPlayButton(key) {
  const button = document.getElementById("replay-play");
  button.dataset.i18n = key;
  button.textContent = t(key);
}

/* Playing: one step, then the next after a pause of the chosen speed, until the end or a pause. */
function playNext() {
  if (replay.step >= replay.total) { stop(); return; }
  go(replay.step + 1).catch(() => {});
  playing = setTimeout(playNext, 700 / speed);
}

function stop() {
  clearTimeout(playing);
  playing = null;
  setPlayButton("replay.play");
}

function toggle() {
  if (playing) { stop(); return; }
  if (replay.step >= replay.total) replay.step = 0;
  setPlayButton("replay.pause");
  playing = setTimeout(playNext, 700 / speed);
}

/* The jump to a deal's trick (its last play) and the speed, after the timeline's buttons. */
function addJumpAndSpeed() {
  const ends = [];
  replay.steps.forEach((s, i) => {
    const next = replay.steps[i + 1];
    if (!next || next.trick !== s.trick || next.deal !== s.deal) ends.push([s, i + 1]);
  });
  const extra = document.createElement("div");
  extra.className = "replay-extra";
  extra.innerHTML = '<label><span data-i18n="replay.jump">' + esc(t("replay.jump")) + '</span> <select id="replay-jump"><option value="0">' + esc(t("replay.start")) + "</option>" +
    ends.map(([s, n]) => '<option value="' + n + '" data-deal="' + (s.deal + 1) + '" data-trick="' + (s.trick + 1) + '">' +
      esc(t("replay.deal_trick", { deal: s.deal + 1, trick: s.trick + 1 })) + "</option>").join("") +
    '</select></label><label><span data-i18n="replay.speed">' + esc(t("replay.speed")) + '</span> <select id="replay-speed">' +
    [0.5, 1, 2, 4].map((x) => '<option value="' + x + '"' + (x === 1 ? " selected" : "") + ">×" + x + "</option>").join("") + "</select></label>";
  const controls = document.querySelector(".timeline-controls");
  controls.parentNode.insertBefore(extra, controls.nextSibling);
  document.getElementById("replay-jump").addEventListener("change", (event) => go(Number(event.target.value)).catch(() => {}));
  document.getElementById("replay-speed").addEventListener("change", (event) => {
    speed = Number(event.target.value);
    if (playing) { clearTimeout(playing); playing = setTimeout(playNext, 700 / speed); } // playing: on at the new speed
  });
}

function bindKeys() {
  const slider = document.getElementById("timeline");
  slider.addEventListener("input", () => go(Number(slider.value)).catch(() => {}));
  document.getElementById("replay-prev").addEventListener("click", () => go(replay.step - 1).catch(() => {}));
  document.getElementById("replay-next").addEventListener("click", () => go(replay.step + 1).catch(() => {}));
  document.getElementById("replay-play").addEventListener("click", toggle);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input:not([type=range]), select, textarea")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -4, PageDown: 4 };
    if (event.key in moves && event.target.id !== "timeline") { event.preventDefault(); go(replay.step + moves[event.key]).catch(() => {}); }
    if (event.key === "Home") { event.preventDefault(); go(0).catch(() => {}); }
    if (event.key === "End") { event.preventDefault(); go(replay.total).catch(() => {}); }
    if (event.key === " " && !event.target.closest("button")) { event.preventDefault(); toggle(); }
  });
}

async function start() {
  startPage("replay");
  page.replay = replay;
  onLanguage(() => {
    document.getElementById("step-label").textContent = t("replay.step", { n: replay.step, total: replay.total });
    document.querySelectorAll("#replay-jump option").forEach((o) => {
      o.textContent = o.dataset.deal ? t("replay.deal_trick", { deal: o.dataset.deal, trick: o.dataset.trick }) : t("replay.start");
    });
    if (page.data) render("language");
  });
  const timeline = await api("/api/replay/" + sessionId);
  replay.steps = timeline.steps;
  replay.total = replay.steps.length;
  const slider = document.getElementById("timeline");
  slider.max = String(replay.total);
  document.getElementById("timeline-marks").innerHTML = replay.steps.map((s, i) =>
    (s.position === 0 ? '<li style="left:' + ((100 * i) / Math.max(replay.total, 1)).toFixed(2) + '%"></li>' : "")).join("");
  addJumpAndSpeed();
  bindKeys();
  const fromHash = parseInt(location.hash.slice(1), 10);
  await go(Number.isFinite(fromHash) ? fromHash : replay.total);
}

start().catch(() => {});

/* The camera set-up page: the source (a webcam, a phone's address typed, a video), the preview, the
 * table outline and seat zones over it, the corners to drag, the warnings, the camera check, and the
 * decks with their guided enrolment. The camera's
 * state and its picture change on the server: two named loops ask for them (pollFrame, pollCamera). */
import { api, onLanguage, startPage, t, writeToken } from "./client.js";

const SVG = "http://www.w3.org/2000/svg";
const FRAME_EVERY_MS = 400; // the preview's picture
const STATE_EVERY_MS = 1000; // the camera's state: the frame read, the warnings, an enrolment learning
let state = null;
let dragging = null; // {index, corners}
let decks = null;
let enrolName = null;

function el(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

function fillForm() {
  const source = document.getElementById("camera-source");
  const size = document.getElementById("camera-size");
  source.innerHTML = "";
  for (const choice of state.choices) {
    const option = document.createElement("option");
    option.value = choice.id;
    option.textContent = t("camera.kind." + choice.kind) + " · " + choice.label;
    source.appendChild(option);
  }
  size.innerHTML = state.sizes.map((s) => '<option value="' + s + '">' + s.replace("x", "×") + "</option>").join("");
  if (state.source) source.value = state.source;
  if (state.size) size.value = state.size;
  const url = document.getElementById("camera-url");
  if (state.url && !url.value) url.value = state.url;
}

function drawOverlay(corners) {
  const view = state.view;
  const svg = document.getElementById("camera-overlay");
  svg.setAttribute("viewBox", "0 0 " + view.size[0] + " " + view.size[1]);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.innerHTML = "";
  const zones = dragging ? {} : view.zones;
  for (const [seat, lines] of Object.entries(zones)) {
    for (const line of lines) {
      svg.appendChild(el("polygon", { class: "zone", "data-seat": seat, points: line.map((p) => p.join(",")).join(" ") }));
    }
    const all = lines.flat();
    if (all.length) {
      const cx = all.reduce((a, p) => a + p[0], 0) / all.length;
      const cy = all.reduce((a, p) => a + p[1], 0) / all.length;
      svg.appendChild(el("text", { class: "zone-label", x: cx, y: cy, "text-anchor": "middle",
        "font-size": Math.round(view.size[1] / 22) }, t("camera.seat", { n: Number(seat) + 1 })));
    }
  }
  svg.appendChild(el("polygon", { class: "table-outline" + (view.given ? "" : " found"), id: "table-outline",
    points: corners.map((p) => p.join(",")).join(" ") }));
  const radius = Math.max(6, view.size[0] / 60);
  corners.forEach((p, index) => {
    const handle = el("circle", { class: "corner", cx: p[0], cy: p[1], r: radius, "data-index": index, tabindex: 0,
      role: "slider", "aria-label": "corner " + (index + 1) });
    svg.appendChild(handle);
  });
}

function render() {
  const preview = state.preview;
  document.getElementById("camera-none").hidden = !!preview;
  // the machine's cameras were looked for (web/camera.py): none is said plainly, with what to do instead
  const noCamera = document.getElementById("camera-no-camera");
  if (noCamera) noCamera.hidden = state.cameras !== 0;
  document.getElementById("camera-stage").hidden = !state.view;
  const info = document.getElementById("camera-info");
  if (state.view && preview && preview.frame) {
    info.textContent = t("camera.frame", { w: state.view.size[0], h: state.view.size[1], n: preview.frame.index }) + " · " +
      (state.view.given ? t("camera.saved") : t("camera.found"));
  } else info.textContent = preview && preview.error ? preview.error : "";
  const stream = preview && preview.stream;
  if (stream) {
    info.textContent += (info.textContent ? " · " : "") + (stream.connected
      ? t("camera.stream.on", { ms: stream.lag_ms == null ? "–" : Math.round(stream.lag_ms) })
      : t("camera.stream.off", { problem: stream.problem || "…" }));
  }
  if (state.view && !dragging) drawOverlay(state.view.corners);
  const warnings = document.getElementById("camera-warnings");
  warnings.innerHTML = "";
  for (const code of state.warnings) {
    const li = document.createElement("li");
    li.dataset.code = code;
    li.textContent = t("warning." + code);
    warnings.appendChild(li);
  }
  if (!state.warnings.length && state.view) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = t("camera.ok");
    warnings.appendChild(li);
  }
  renderCheck();
  renderDecks();
}

function renderCheck() {
  const box = document.getElementById("check-result");
  const check = state.check;
  box.innerHTML = "";
  if (!check) return;
  const verdict = document.createElement("p");
  verdict.id = "check-verdict";
  verdict.dataset.verdict = check.verdict;
  verdict.textContent = t("check.verdict." + check.verdict) + " " + t("check.reader." + check.reader);
  box.appendChild(verdict);
  const summary = document.createElement("p");
  summary.className = "hint";
  summary.textContent = t("check.summary", { cards: check.cards, px: check.index_px == null ? "–" : check.index_px,
    b: check.brightness });
  box.appendChild(summary);
  const list = document.createElement("ul");
  list.id = "check-advice";
  for (const [code, values] of check.advice_codes) {
    const li = document.createElement("li");
    li.dataset.code = code;
    const shown = {};
    for (const [k, v] of Object.entries(values)) shown[k] = Number.isInteger(v) ? v : Number(v).toFixed(k === "closer" ? 1 : 0);
    li.textContent = t("advice." + code, shown);
    list.appendChild(li);
  }
  box.appendChild(list);
}

// --- preview ------------------------------------------------------------------------------
let frameBusy = false;
/* The preview's picture, asked again while the camera is open (one request at a time). */
function pollFrame() {
  if (!state || !state.preview || frameBusy) return;
  const img = document.getElementById("camera-frame");
  frameBusy = true;
  const next = new Image();
  next.onload = () => { img.src = next.src; frameBusy = false; };
  next.onerror = () => { frameBusy = false; };
  next.src = "/api/camera/frame.jpg?n=" + Date.now();
}

async function reload() {
  state = await api("/api/camera");
  window.TuolajiCamera.state = state;
  render();
}

function svgPoint(event) {
  const svg = document.getElementById("camera-overlay");
  const point = svg.createSVGPoint();
  point.x = event.clientX; point.y = event.clientY;
  const local = point.matrixTransform(svg.getScreenCTM().inverse());
  return [Math.round(local.x * 10) / 10, Math.round(local.y * 10) / 10];
}

function bindDrag() {
  const svg = document.getElementById("camera-overlay");
  svg.addEventListener("pointerdown", (event) => {
    const handle = event.target.closest("circle.corner");
    if (!handle || !writeToken) return;
    event.preventDefault();
    svg.setPointerCapture(event.pointerId);
    dragging = { index: Number(handle.dataset.index), corners: state.view.corners.map((p) => p.slice()) };
  });
  svg.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    dragging.corners[dragging.index] = svgPoint(event);
    drawOverlay(dragging.corners);
  });
  const drop = () => {
    if (!dragging) return;
    const corners = dragging.corners;
    api("/api/camera/corners", { corners: corners }).then((json) => { dragging = null; state = json; render(); })
      .catch(() => { dragging = null; reload().catch(() => {}); });
  };
  svg.addEventListener("pointerup", drop);
  svg.addEventListener("pointercancel", drop);
}

// --- decks ----------------------------------------------------------------------------------
async function reloadDecks() {
  decks = await api("/api/decks");
  renderDecks();
}

function renderDecks() {
  if (!decks) return;
  const list = document.getElementById("deck-list");
  list.innerHTML = "";
  if (!decks.decks.length) {
    const li = document.createElement("li"); li.className = "none"; li.textContent = t("decks.none"); list.appendChild(li);
  }
  for (const name of decks.decks) {
    const li = document.createElement("li"); li.textContent = name; list.appendChild(li);
  }
  const enrolment = decks.enrolment;
  const steps = document.getElementById("enrol-steps");
  steps.hidden = !enrolment || enrolment.status !== "photos";
  const result = document.getElementById("enrol-result");
  result.textContent = "";
  result.dataset.status = enrolment ? enrolment.status : "";
  if (!enrolment) return;
  if (enrolment.status === "photos") {
    const n = enrolment.photos.length;
    const done = n >= enrolment.steps.length;
    document.getElementById("enrol-step").textContent = done ? "" :
      t("decks.step", { n: n + 1, total: enrolment.steps.length, what: t("decks.what." + enrolment.steps[n].key) });
    document.getElementById("enrol-photos").textContent = t("decks.photos", { n: n });
    document.getElementById("enrol-shoot").hidden = done;
    document.getElementById("enrol-finish").hidden = !done;
  } else if (enrolment.status === "learning") {
    result.textContent = t("decks.learning");
  } else if (enrolment.status === "done") {
    result.textContent = t("decks.done", { name: enrolment.name, matched: enrolment.result.cards_matched,
      listed: enrolment.result.cards_listed });
  } else if (enrolment.status === "failed") {
    result.textContent = t("decks.failed", { error: enrolment.error });
  }
}

function bind() {
  document.getElementById("camera-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    const url = form.url.value.trim(); // a phone's address, when typed, rather than the source chosen
    const body = url ? { url: url, size: form.size.value } : { source: form.source.value, size: form.size.value };
    api("/api/camera/open", body, "camera-url-error")
      .then((json) => { state = json; fillForm(); render(); pollFrame(); }).catch(() => {});
  });
  document.getElementById("camera-source").addEventListener("change", () => {
    document.getElementById("camera-url").value = ""; // a source chosen: not the phone's address typed
  });
  document.getElementById("camera-reset").addEventListener("click", () => {
    api("/api/camera/corners/reset", {}).then((json) => { state = json; render(); }).catch(() => {});
  });
  document.getElementById("camera-check").addEventListener("click", (event) => {
    event.target.disabled = true;
    api("/api/camera/check", {}).then((json) => { state = json; render(); }).catch(() => {})
      .finally(() => { event.target.disabled = false; });
  });
  document.getElementById("enrol-start").addEventListener("submit", (event) => {
    event.preventDefault();
    enrolName = event.target.name.value.trim();
    const layout = Boolean(event.submitter && event.submitter.id === "enrol-layout");
    api("/api/decks/enrol/start", { name: enrolName, layout }).then((json) => { decks = json; renderDecks(); }).catch(() => {});
  });
  document.getElementById("enrol-shoot").addEventListener("click", () => {
    api("/api/decks/enrol/photo", {}).then((json) => { decks = json; renderDecks(); }).catch(() => {});
  });
  document.getElementById("enrol-finish").addEventListener("click", () => {
    api("/api/decks/enrol/finish", {}).then((json) => { decks = json; renderDecks(); }).catch(() => {});
  });
  document.getElementById("enrol-cancel").addEventListener("click", () => {
    api("/api/decks/enrol/cancel", {}).then((json) => { decks = json; renderDecks(); }).catch(() => {});
  });
  bindDrag();
}

/* The camera's state (not while a corner is dragged), and the decks while one is learning. */
function pollCamera() {
  if (!dragging) reload().catch(() => {});
  if (decks && decks.enrolment && decks.enrolment.status === "learning") reloadDecks().catch(() => {});
}

window.TuolajiCamera = { state: null };
startPage("static");
onLanguage(() => { if (state) { fillForm(); render(); } });
bind();
reload().then(fillForm).catch(() => {});
reloadDecks().catch(() => {});
setInterval(pollFrame, FRAME_EVERY_MS);
setInterval(pollCamera, STATE_EVERY_MS);

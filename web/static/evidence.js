/* Pictures of plays: a violation's alert shows the pictures that prove it (the play at fault and
 * the later play that shows the card was held); the trick history shows each play's picture on
 * demand; the replay shows the recorded video's frame of the step. It follows the page's renders
 * (the render event): the live page's pictures are asked again at each new state, the replay's once. */
import { fetchJson, onRender, page, playerName, t } from "./client.js";

const layout = document.querySelector(".layout");
const replaySession = layout && layout.dataset.mode === "replay" ? layout.dataset.session : null;
let evidence = null;
let asked = null; // the request for the pictures in flight

function figure(play) {
  const fig = document.createElement("figure");
  fig.dataset.role = play.role;
  fig.dataset.trick = play.trick;
  fig.dataset.seat = play.seat;
  if (play.picture) {
    const img = document.createElement("img");
    img.src = play.picture.url;
    img.alt = t("pictures.title", { trick: play.trick + 1, name: playerName(play.seat) });
    img.loading = "lazy";
    fig.appendChild(img);
  }
  const caption = document.createElement("figcaption");
  caption.textContent = play.picture ? t("pictures.caption", { role: t("pictures." + play.role), trick: play.trick + 1,
    name: playerName(play.seat), time: play.picture.time_s }) : t("pictures." + play.role) + " · " + t("pictures.none");
  fig.appendChild(caption);
  return fig;
}

function decorateAlerts() {
  document.querySelectorAll("#alerts li.alert[data-trick]").forEach((li) => {
    if (li.querySelector(".evidence")) return;
    const found = evidence.violations.find((v) => String(v.deal) === li.dataset.deal && String(v.trick) === li.dataset.trick &&
      String(v.seat) === li.dataset.seat && v.rule === li.dataset.rule);
    if (!found || !found.plays.some((p) => p.picture)) return;
    const box = document.createElement("div");
    box.className = "evidence";
    found.plays.forEach((play) => box.appendChild(figure(play)));
    li.appendChild(box);
  });
}

function openPicture(picture) {
  const dialog = document.getElementById("picture-dialog");
  const title = t("pictures.title", { trick: picture.trick + 1, name: playerName(picture.seat) });
  document.getElementById("picture-title").textContent = title;
  const img = document.getElementById("picture-image");
  img.src = picture.url;
  img.alt = title;
  document.getElementById("picture-caption").textContent = t("pictures.at", { trick: picture.trick + 1, name: playerName(picture.seat),
    time: picture.time_s });
  dialog.showModal();
}

function decorateHistory() {
  for (const picture of evidence.pictures) {
    const cell = document.querySelector("#trick-" + picture.deal + "-" + picture.trick + ' td[data-seat="' + picture.seat + '"]');
    if (!cell || cell.querySelector(".picture-btn")) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "picture-btn";
    button.textContent = "📷";
    button.setAttribute("aria-label", t("pictures.show"));
    button.title = t("pictures.show");
    button.addEventListener("click", () => openPicture(picture));
    cell.appendChild(button);
  }
}

// --- the replay: the video's frame of the step ---------------------------------------------------
function frameBox() {
  let box = document.getElementById("replay-frame");
  const timeline = document.querySelector(".timeline");
  if (box || !timeline) return box;
  box = document.createElement("figure");
  box.id = "replay-frame";
  box.className = "card-box replay-frame";
  box.hidden = true;
  box.innerHTML = '<img alt=""><figcaption class="hint"></figcaption>';
  box.querySelector("img").addEventListener("error", () => { box.hidden = true; });
  timeline.appendChild(box);
  return box;
}

function showFrame() {
  const box = frameBox();
  const replay = page.replay;
  if (!box || !replay) return;
  const step = replay.step;
  const play = step ? replay.steps[step - 1] : null;
  const picture = play && evidence.pictures.find((p) => p.deal === play.deal && p.trick === play.trick && p.seat === play.seat);
  if (!picture || !evidence.video) { box.hidden = true; return; }
  const img = box.querySelector("img");
  const src = "/api/replay/" + replaySession + "/frame/" + step;
  if (img.getAttribute("src") !== src) img.src = src;
  box.dataset.frame = picture.frame;
  box.querySelector("figcaption").textContent = t("replay.frame", { frame: picture.frame, time: picture.time_s });
  box.hidden = false;
}

function decorate() {
  if (!evidence) return;
  decorateAlerts();
  decorateHistory();
  if (replaySession) showFrame();
}

/* The pictures: the live table's as they are now; a stored session's once. */
async function refresh() {
  const found = await fetchJson(replaySession ? "/api/replay/" + replaySession + "/pictures" : "/api/evidence");
  if (found) evidence = found;
}

let again = false; // a new state came while the pictures were asked: ask once more after

function ask() {
  if (replaySession && evidence) return;
  if (asked) { again = true; return; }
  asked = refresh().catch(() => {}).finally(() => {
    asked = null;
    decorate();
    if (again) { again = false; ask(); }
  });
}

if (layout) {
  onRender(({ cause }) => {
    if (cause === "state") ask();
    decorate(); // the table was drawn again: its alerts and history are new elements
  });
}

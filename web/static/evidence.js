/* Pictures of plays: a violation's alert shows the pictures that prove it (the play at fault and
 * the later play that shows the card was held); the trick history shows each play's picture on
 * demand; the replay gets a jump to any deal or trick, a speed, and the recorded video's frame. */
(function () {
  "use strict";
  const T = window.Tuolaji;
  const t = (key, vars) => T.t(key, vars);
  const layout = document.querySelector(".layout");
  if (!layout) return;
  const mode = layout.dataset.mode;
  const session = layout.dataset.session;
  let evidence = null;
  let seen = -1;
  let fetchedAt = -1;
  let steps = [];

  function players() { return T.state && T.state.state ? T.state.state.record.players : []; }
  function nameOf(seat) { return players()[seat] != null ? players()[seat] : "#" + seat; }

  function figure(play) {
    const fig = document.createElement("figure");
    fig.dataset.role = play.role;
    fig.dataset.trick = play.trick;
    fig.dataset.seat = play.seat;
    if (play.picture) {
      const img = document.createElement("img");
      img.src = play.picture.url;
      img.alt = t("pictures.title", { trick: play.trick + 1, name: nameOf(play.seat) });
      img.loading = "lazy";
      fig.appendChild(img);
    }
    const caption = document.createElement("figcaption");
    caption.textContent = play.picture ? t("pictures.caption", { role: t("pictures." + play.role), trick: play.trick + 1,
      name: nameOf(play.seat), time: play.picture.time_s }) : t("pictures." + play.role) + " · " + t("pictures.none");
    fig.appendChild(caption);
    return fig;
  }

  function decorateAlerts() {
    if (!evidence) return;
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
    document.getElementById("picture-title").textContent = t("pictures.title", { trick: picture.trick + 1, name: nameOf(picture.seat) });
    const img = document.getElementById("picture-image");
    img.src = picture.url;
    img.alt = document.getElementById("picture-title").textContent;
    document.getElementById("picture-caption").textContent = t("pictures.at", { trick: picture.trick + 1, name: nameOf(picture.seat),
      time: picture.time_s });
    dialog.showModal();
  }

  function decorateHistory() {
    if (!evidence) return;
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

  // --- replay: jump, speed, the video's frame ------------------------------------------------
  function currentStep() { const n = parseInt(location.hash.slice(1), 10); return Number.isFinite(n) ? n : null; }

  function showFrame() {
    const box = document.getElementById("replay-frame");
    if (!box || !evidence) return;
    const step = currentStep();
    const play = step ? steps[step - 1] : null;
    const picture = play && evidence.pictures.find((p) => p.deal === play.deal && p.trick === play.trick && p.seat === play.seat);
    if (!picture || !evidence.video) { box.hidden = true; return; }
    const img = box.querySelector("img");
    const src = "/api/replay/" + session + "/frame/" + step;
    if (img.getAttribute("src") !== src) img.src = src;
    box.dataset.frame = picture.frame;
    box.querySelector("figcaption").textContent = t("replay.frame", { frame: picture.frame, time: picture.time_s });
    box.hidden = false;
  }

  async function setUpReplay() {
    const timeline = await (await fetch("/api/replay/" + session)).json();
    steps = timeline.steps;
    const controls = document.querySelector(".timeline-controls");
    const extra = document.createElement("div");
    extra.className = "replay-extra";
    const ends = [];
    steps.forEach((s, i) => { const next = steps[i + 1]; if (!next || next.trick !== s.trick || next.deal !== s.deal) ends.push([s, i + 1]); });
    extra.innerHTML = '<label><span data-i18n="replay.jump">' + t("replay.jump") + '</span> <select id="replay-jump"><option value="0">0</option>' +
      ends.map(([s, n]) => '<option value="' + n + '">' + t("replay.deal_trick", { deal: s.deal + 1, trick: s.trick + 1 }) + "</option>").join("") +
      '</select></label><label><span data-i18n="replay.speed">' + t("replay.speed") + '</span> <select id="replay-speed">' +
      [0.5, 1, 2, 4].map((x) => '<option value="' + x + '"' + (x === 1 ? " selected" : "") + ">×" + x + "</option>").join("") + "</select></label>";
    controls.parentNode.insertBefore(extra, controls.nextSibling);
    const slider = document.getElementById("timeline");
    document.getElementById("replay-jump").addEventListener("change", (event) => {
      slider.value = event.target.value;
      slider.dispatchEvent(new Event("input"));
    });
    document.getElementById("replay-speed").addEventListener("change", (event) => {
      T.replaySpeed = Number(event.target.value);
      const button = document.getElementById("replay-play");
      if (button.dataset.i18n === "replay.pause") { button.click(); button.click(); } // playing: again at the new speed
    });
    const frame = document.createElement("figure");
    frame.id = "replay-frame";
    frame.className = "card-box replay-frame";
    frame.hidden = true;
    frame.innerHTML = '<img alt=""><figcaption class="hint"></figcaption>';
    frame.querySelector("img").addEventListener("error", () => { frame.hidden = true; });
    document.querySelector(".timeline").appendChild(frame);
  }

  async function refresh() {
    const path = mode === "replay" ? "/api/replay/" + session + "/pictures" : "/api/evidence";
    const response = await fetch(path);
    if (response.ok) evidence = await response.json();
  }

  async function tick() {
    const count = T.renders();
    if (count === seen) return;
    seen = count;
    if (mode !== "replay" || fetchedAt < 0) { fetchedAt = count; await refresh(); }
    decorateAlerts();
    decorateHistory();
    showFrame();
  }

  (mode === "replay" ? setUpReplay() : Promise.resolve()).catch(() => {}).finally(() => {
    setInterval(() => { tick().catch(() => {}); }, 300);
  });
  window.addEventListener("hashchange", showFrame);
})();

/* The card tracker (记牌器) panel: what is still out, trumps and points left, proven voids.
 * Counts come from the server (scorer.tracker); this only draws them. It follows the page's
 * renders (the render event): the live table (off until switched on), the spectator view and the
 * replay (always on) ask the server's counts again at each new state or step. */
import { cardLabel, fetchJson, onRender, page, suitLabel, t } from "./client.js";

const panel = document.getElementById("tracker");
const mode = panel ? panel.dataset.mode : null;
const STORE = "tuolaji-tracker";
let tracker = null;
let on = mode !== "live";
let stale = true; // a new state since the counts were asked
let askedCount = 0;

function suitName(suit) { return suit === "trump" ? t("tracker.suit.trump") : suitLabel(suit); }

function render() {
  const body = document.getElementById("tracker-body");
  body.hidden = !on;
  const off = document.getElementById("tracker-off");
  if (off) off.hidden = on;
  if (!on) { body.innerHTML = ""; return; }
  body.innerHTML = "";
  if (!tracker) { body.innerHTML = '<p class="none">' + t("tracker.no_deal") + "</p>"; return; }
  const add = (tag, cls, text) => { const n = document.createElement(tag); if (cls) n.className = cls; if (text != null) n.textContent = text; body.appendChild(n); return n; };
  const figures = add("p", "tracker-figures");
  figures.innerHTML = '<span id="tracker-trumps">' + t("tracker.trumps") + " <b>" + tracker.trumps.left + "</b>/" + tracker.trumps.total +
    '</span> · <span id="tracker-points">' + t("tracker.points") + " <b>" + tracker.points.left + "</b>/" + tracker.points.total + "</span>";
  add("h3", "", t("tracker.out"));
  const keys = add("ul", "key-cards");
  keys.id = "tracker-keys";
  for (const key of tracker.key_cards) {
    const li = document.createElement("li");
    li.dataset.card = key.card;
    li.dataset.left = key.left;
    if (key.left === 0) li.className = "gone";
    li.textContent = cardLabel(key.card) + " ×" + key.left;
    keys.appendChild(li);
  }
  const table = add("table", "tracker-suits");
  table.id = "tracker-suits";
  const suits = ["S", "H", "C", "D", "trump"];
  table.innerHTML = "<tr>" + suits.map((s) => "<th>" + suitName(s) + "</th>").join("") + "</tr><tr>" +
    suits.map((s) => '<td data-suit="' + s + '">' + tracker.suits[s].left + "</td>").join("") + "</tr>";
  add("h3", "", t("tracker.voids"));
  const voids = add("ul", "tracker-voids");
  voids.id = "tracker-voids";
  if (!tracker.voids.length) voids.innerHTML = '<li class="none">' + t("tracker.no_voids") + "</li>";
  for (const v of tracker.voids) {
    const li = document.createElement("li");
    li.dataset.seat = v.seat;
    li.dataset.suit = v.suit;
    let text = t("tracker.void", { name: tracker.players[v.seat], suit: suitName(v.suit), trick: v.trick + 1 });
    if (v.contradicted != null) { text += t("tracker.contradicted", { trick: v.contradicted + 1, suit: suitName(v.suit) }); li.className = "contradicted"; }
    li.textContent = text;
    voids.appendChild(li);
  }
}

async function refresh() {
  let path = "/api/tracker";
  if (mode === "replay") {
    if (!page.replay) return;
    path = "/api/replay/" + panel.dataset.session + "/tracker/" + page.replay.step;
  }
  const asked = ++askedCount;
  const found = await fetchJson(path);
  if (!found || asked !== askedCount) return; // a later step's counts were asked meanwhile
  tracker = found.tracker;
  render();
}

function follow({ cause }) {
  if (cause === "state") stale = true;
  if (on && stale) { stale = false; refresh().catch(() => {}); } else render();
}

if (panel) {
  const toggle = document.getElementById("tracker-switch");
  if (toggle) {
    try { on = localStorage.getItem(STORE) === "on"; } catch (e) { on = false; }
    toggle.checked = on;
    toggle.addEventListener("change", () => {
      on = toggle.checked;
      try { localStorage.setItem(STORE, on ? "on" : "off"); } catch (e) { /* private mode */ }
      stale = true;
      follow({ cause: "switch" });
    });
  }
  render();
  onRender(follow);
}

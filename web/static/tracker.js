/* The card tracker (记牌器) panel: what is still out, trumps and points left, proven voids.
 * Counts come from the server (scorer.tracker); this only draws them. It follows the page's
 * renders: the live table (off until switched on), the spectator view and the replay (always on). */
(function () {
  "use strict";
  const T = window.Tuolaji;
  const t = (key, vars) => T.t(key, vars);
  const panel = document.getElementById("tracker");
  if (!panel) return;
  const mode = panel.dataset.mode;
  const SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
  const STORE = "tuolaji-tracker";
  let seen = -1;
  let tracker = null;
  let on = mode !== "live";

  function lang() { return document.documentElement.dataset.lang || "zh"; }
  function cardName(card) {
    if (card === "BJ") return lang() === "zh" ? "大王" : "big joker";
    if (card === "SJ") return lang() === "zh" ? "小王" : "small joker";
    return SUIT[card.slice(-1)] + card.slice(0, -1);
  }
  function suitName(suit) { return suit === "trump" ? t("tracker.suit.trump") : SUIT[suit]; }

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
      li.textContent = cardName(key.card) + " ×" + key.left;
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
      const step = parseInt(location.hash.slice(1), 10);
      if (!Number.isFinite(step)) return;
      path = "/api/replay/" + panel.dataset.session + "/tracker/" + step;
    }
    const response = await fetch(path);
    if (!response.ok) return;
    tracker = (await response.json()).tracker;
    render();
  }

  const toggle = document.getElementById("tracker-switch");
  if (toggle) {
    try { on = localStorage.getItem(STORE) === "on"; } catch (e) { on = false; }
    toggle.checked = on;
    toggle.addEventListener("change", () => {
      on = toggle.checked;
      try { localStorage.setItem(STORE, on ? "on" : "off"); } catch (e) { /* private mode */ }
      seen = -1;
      render();
    });
  }
  document.getElementById("lang-toggle").addEventListener("click", () => render());
  render();
  setInterval(() => {
    const count = T.renders();
    if (on && count !== seen) { seen = count; refresh().catch(() => {}); }
  }, 300);
})();

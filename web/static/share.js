/* Share a result: links to a deal's settlement and to the game's level chart as one PNG laid out
 * for a phone (web/share.py draws them), beside the summary and the level chart. */
(function () {
  "use strict";
  const T = window.Tuolaji;
  const layout = document.querySelector(".layout");
  if (!layout) return;

  function link(id, key, parent) {
    const a = document.createElement("a");
    a.id = id;
    a.className = "share-link";
    a.dataset.i18n = key;
    a.textContent = T.t(key);
    a.hidden = true;
    parent.appendChild(a);
    return a;
  }

  const summary = document.getElementById("summary");
  const chart = document.getElementById("levels-chart");
  if (!summary || !chart) return;
  const dealLink = link("share-deal", "share.deal", summary);
  const levelsLink = link("share-levels", "share.levels", chart.parentNode);

  function update() {
    const state = T.state;
    const session = layout.dataset.session || (state && state.session ? state.session.id : null);
    if (!state || !state.state || session == null) { dealLink.hidden = levelsLink.hidden = true; return; }
    const deals = state.state.record.deals;
    const lang = document.documentElement.dataset.lang || "zh";
    const deal = deals.length - 1;
    dealLink.href = "/api/share/" + session + "/deal/" + deal + ".png?lang=" + lang;
    dealLink.download = "tuolaji-" + session + "-deal-" + (deal + 1) + ".png";
    levelsLink.href = "/api/share/" + session + "/levels.png?lang=" + lang;
    levelsLink.download = "tuolaji-" + session + "-levels.png";
    dealLink.hidden = deal < 0;
    levelsLink.hidden = deal < 0;
  }

  let seen = -1;
  setInterval(() => { const n = T.renders(); if (n !== seen) { seen = n; update(); } }, 300);
  document.getElementById("lang-toggle").addEventListener("click", update);
})();

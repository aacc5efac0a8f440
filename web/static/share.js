/* Share a result: links to a deal's settlement, its 复盘 (everyone's hand) and the game's level chart as one PNG laid out
 * for a phone (web/share.py draws them), beside the summary and the level chart. They follow the
 * page's renders (the render event): the deal shown and the page's language. */
import { language, onRender, t } from "./client.js";

const layout = document.querySelector(".layout");
const summary = document.getElementById("summary");
const chart = document.getElementById("levels-chart");

function link(id, key, parent) {
  const a = document.createElement("a");
  a.id = id;
  a.className = "share-link";
  a.dataset.i18n = key;
  a.textContent = t(key);
  a.hidden = true;
  parent.appendChild(a);
  return a;
}

if (layout && summary && chart) {
  const dealLink = link("share-deal", "share.deal", summary);
  const levelsLink = link("share-levels", "share.levels", chart.parentNode);
  const handsLink = link("share-hands", "share.hands", summary);
  onRender(({ data }) => {
    const session = layout.dataset.session || (data && data.session ? data.session.id : null);
    if (!data || !data.state || session == null) { dealLink.hidden = levelsLink.hidden = handsLink.hidden = true; return; }
    const deal = data.state.record.deals.length - 1;
    const lang = language();
    dealLink.href = "/api/share/" + session + "/deal/" + deal + ".png?lang=" + lang;
    dealLink.download = "tuolaji-" + session + "-deal-" + (deal + 1) + ".png";
    levelsLink.href = "/api/share/" + session + "/levels.png?lang=" + lang;
    levelsLink.download = "tuolaji-" + session + "-levels.png";
    dealLink.hidden = deal < 0;
    levelsLink.hidden = deal < 0;
    // 复盘 as a picture: once the deal is settled and its plays hold the hands (the view says)
    const review = deal >= 0 && data.view && data.view.deals[deal] ? data.view.deals[deal].hands : null;
    handsLink.hidden = !review;
    handsLink.href = "/api/share/" + session + "/deal/" + deal + "/hands.png?lang=" + lang;
    handsLink.download = "tuolaji-" + session + "-deal-" + (deal + 1) + "-review.png";
  });
}

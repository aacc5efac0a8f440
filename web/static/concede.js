/* 认输 (concede) in one tap from either side: the dealer's side or the defenders give the deal up, and it
 * is settled by the points agreed (optional) or the house's fixed cost, whose outcome the server names
 * (view.concession, the rules core's); no last trick and no kitty are asked for. */
import { api, page, showState, t } from "./client.js";
import { currentDealIndex } from "./board.js";

function costWords(cost) {
  const outcome = cost.outcome;
  const said = outcome.side === "defenders" ?
    t(outcome.levels ? "summary.outcome.defenders" : "summary.outcome.defenders0", { n: outcome.levels }) :
    t("summary.outcome.dealer", { n: outcome.levels });
  return t("concede.cost", { p: cost.points, outcome: said });
}

export function renderConcede() {
  const box = document.getElementById("concede");
  if (!box || !page.data.view || !page.data.view.concession) return;
  const d = currentDealIndex();
  const deal = page.data.state.record.deals[d];
  const dealAudit = page.data.state.audit.deals[d];
  // while the current deal is played: not over, not kept by its total
  const playing = page.mode === "live" && d === page.data.state.record.deals.length - 1 && deal.defender_points == null &&
    !(dealAudit && dealAudit.outcome != null);
  box.hidden = !playing;
  if (!playing) return;
  const costs = page.data.view.concession;
  box.querySelectorAll(".concede-side").forEach((button) => {
    button.title = costWords(costs[button.dataset.by]);
  });
  document.getElementById("concede-rule").textContent = t("concede.house", {
    dealer: costWords(costs.dealer), defenders: costWords(costs.defenders) });
}

export function bindConcede() {
  const box = document.getElementById("concede");
  if (!box) return;
  box.addEventListener("click", (event) => {
    const button = event.target.closest(".concede-side");
    if (!button) return;
    const agreed = document.getElementById("concede-points");
    const body = { by: button.dataset.by };
    if (agreed.value.trim()) body.points = Number(agreed.value);
    api("/api/points/concede", body, "concede-error").then((data) => { agreed.value = ""; showState(data); }).catch(() => {});
  });
}

/* A finished deal's settlement (结算): the kitty and what it counted, the penalties, the total, the
 * outcome and the level change, the next dealer or the game's winners, and the violations with
 * their consequence (the rules' penalty, the table's ruling, or the buttons to rule). The figures
 * are the audit's and the view's (the kitty's total is the view's kitty_total). */
import { cardHtml, esc, page, playerName, players, t, words, writeToken } from "./client.js";
import { alertText, currentDealIndex } from "./board.js";

function kittyLines(deal, dealAudit, total) {
  const conceded = dealAudit.conceded;
  if (conceded) {  // 认输: no last trick, so no kitty; the side that conceded and the points it counted
    return ['<p class="conceded-line">' + esc(t("summary.conceded." + conceded.by) +
      t(conceded.agreed ? "summary.conceded_points" : "summary.conceded_house", { p: conceded.points })) + "</p>"];
  }
  const kitty = deal.kitty || [];
  const rows = [];
  rows.push('<div class="summary-kitty"><span class="label">' + esc(t("summary.kitty")) + '</span><span class="cards">' +
    (kitty.length ? kitty.map((c) => cardHtml(c, null, ["small"])).join("") : deal.kitty_unknown ?
      '<span class="kitty-unknown">' + esc(t("summary.kitty_unknown")) + "</span>" : deal.kitty_points != null ?
      '<span class="kitty-by-points">' + esc(t("points.kitty")) + " " + esc(deal.kitty_points) + "</span>" : "–") + "</span></div>");
  const figures = { p: dealAudit.kitty_points, m: dealAudit.kitty_multiplier };
  if (dealAudit.kitty_won_by === "defenders") {
    rows.push('<p class="kitty-line">' + esc(t("summary.kitty_won", figures)) + " = " + esc(total) + "</p>");
  } else {
    // kept by the dealer's side, the kitty multiplies nothing: no multiplier is named (issue 43)
    rows.push('<p class="kitty-line">' + esc(t("summary.kitty_dealer", figures)) + "</p>");
  }
  return rows;
}

export function renderSummary(deal, d, dealAudit) {
  const box = document.getElementById("summary");
  if (!box) return;
  if (!dealAudit || dealAudit.outcome == null) { box.hidden = true; return; }
  box.hidden = false;
  const live = page.mode === "live";
  const view = page.data.view;
  // the settlement waits for the kitty (or an explicit 底牌未知): without it the levels would be wrong
  const ready = view.settle_ready ? view.settle_ready[d] : true; // a replay shows the record as stored
  const wait = document.getElementById("kitty-wait");
  if (wait) wait.hidden = ready || !live;
  const nextForm = document.getElementById("next-deal-form");
  if (!ready) {
    // said once: by the kitty's form where the page may write, else here
    document.getElementById("summary-body").innerHTML = live && writeToken ? "" : '<p class="kitty-pending">' + esc(t("kitty.wait")) + "</p>";
    if (nextForm) nextForm.hidden = true;
    return;
  }
  const before = view.deals[d].levels_before;
  const after = dealAudit.levels_after || before;
  const cardPoints = view.deals[d].defender_points;
  const rows = ['<p class="card-points-line"><span>' + esc(t("summary.card_points")) + '</span> <strong id="card-points">' +
    esc(cardPoints) + "</strong></p>"].concat(kittyLines(deal, dealAudit, view.deals[d].kitty_total));
  if (dealAudit.penalty_points) rows.push('<p class="penalty-line">' + esc(t("summary.penalties", { p: dealAudit.penalty_points })) + "</p>");
  // the total's parts as the audit counts them: the card points, the kitty the defenders won, the penalties
  const kittyWon = dealAudit.kitty_won_by === "defenders" ? view.deals[d].kitty_total : 0;
  const base = dealAudit.conceded ? dealAudit.conceded.points : cardPoints;  // 认输 counts its points, not the tricks'
  const parts = [String(base)].concat(kittyWon ? ["+ " + kittyWon] : [],
    dealAudit.penalty_points ? [(dealAudit.penalty_points > 0 ? "+ " : "− ") + Math.abs(dealAudit.penalty_points)] : []);
  rows.push('<p class="total"><span>' + esc(t("summary.total")) + '</span> <span class="total-parts">' +
    esc(parts.length > 1 ? parts.join(" ") + " =" : "") + '</span> <strong id="total-points">' +
    esc(dealAudit.total_defender_points) + "</strong></p>");
  const outcome = dealAudit.outcome;
  const result = (view.results || [])[d];
  rows.push('<p class="outcome">' + esc(result ? words(result.outcome_words) : outcome.side === "defenders" ?
    t(outcome.levels ? "summary.outcome.defenders" : "summary.outcome.defenders0", { n: outcome.levels }) :
    t("summary.outcome.dealer", { n: outcome.levels })) + "</p>");
  rows.push('<ul class="level-change">' + view.sides.map((side) => {
    const seat = side.seats[0];
    return "<li>" + esc(side.name) + ": " + esc(before[seat]) + " → <strong>" + esc(after[seat]) + "</strong></li>";
  }).join("") + "</ul>");
  if (dealAudit.game_winner) {
    // the game is over: the winners by name, no next deal, and a new game with the same players
    const side = view.deals[d].dealer_side;
    const winners = players().map((_, seat) => seat).filter((seat) => side.includes(seat) === (dealAudit.game_winner === "dealer"));
    rows.push('<p class="game-winner">' + esc(t("summary.game_won", { names: winners.map(playerName).join("、") })) + "</p>");
    if (live) rows.push('<button type="button" id="play-again" class="write-only">' + esc(t("action.play_again")) + "</button>");
  } else if (dealAudit.next_dealer != null) {
    rows.push('<p class="next-dealer">' + esc(t("summary.next_dealer")) + ": <strong>" + esc(playerName(dealAudit.next_dealer)) + "</strong></p>");
  }
  rows.push(rulingsHtml(d, dealAudit));
  rows.push(reviewHtml(view.deals[d].hands));
  const focused = document.activeElement && document.activeElement.classList.contains("ruling-points") ?
    { violation: document.activeElement.closest(".ruling-item").dataset.violation, value: document.activeElement.value } : null;
  document.getElementById("summary-body").innerHTML = rows.join("");
  if (focused) {
    const input = document.querySelector('.ruling-item[data-violation="' + focused.violation + '"] .ruling-points');
    if (input) { input.value = focused.value; input.focus(); }
  }
  if (nextForm) nextForm.hidden = !(live && d === currentDealIndex() && !dealAudit.game_winner);
}

/* 复盘: each seat's hand as it played it and the kitty its dealer buried (the view's, rebuilt by the
   rules core from the plays), once the deal is settled; none for a deal kept by points. */
function reviewHtml(review) {
  if (!review) return "";
  const row = (label, cards, seat) => '<li' + (seat == null ? ' class="review-kitty"' : ' data-seat="' + seat + '"') +
    '><span class="review-name">' + esc(label) + '</span> <span class="review-cards">' +
    cards.map((card) => cardHtml(card)).join("") + "</span></li>";
  return '<details class="hands-review" id="hands-review"><summary>' + esc(t("review.title")) + '</summary><ul>' +
    review.hands.map((cards, seat) => row(playerName(seat), cards, seat)).join("") +
    row(t("review.kitty", { name: playerName(review.dealer) }), review.kitty, null) + "</ul></details>";
}

function rulingActions(offer, proven) {
  let html = '<div class="ruling-actions write-only">';
  if (offer) {
    html += '<button type="button" class="ruling-offer">' + esc(offer.points ? t("rulings.offer", { p: offer.points }) :
      t("rulings.offer_level")) + "</button> ";
  } else if (!proven) {
    html += '<span class="hint">' + esc(t("rulings.unproven")) + "</span> ";
  }
  return html + '<label><span>' + esc(t("rulings.own")) + '</span> <input type="number" class="ruling-points" min="1" max="10000" step="5" ' +
    'inputmode="numeric" aria-label="' + esc(t("rulings.own_points")) + '"></label> <button type="button" class="ruling-own">' +
    esc(t("rulings.apply_points")) + '</button> <button type="button" class="ruling-level">' + esc(t("rulings.apply_level")) + "</button></div>";
}

/* The settlement's violations, each with its consequence: the rules' penalty, the table's ruling, or buttons to rule. */
function rulingsHtml(d, dealAudit) {
  const data = page.data;
  const live = page.mode === "live";
  const violations = dealAudit.violations || [];
  const penalties = dealAudit.penalties || [];
  const rulings = data.state.record.deals[d].rulings || [];
  const offers = data.view.rulings && data.view.rulings.deal === d ? data.view.rulings.offers : [];
  const texts = data.view.deals[d] || {};
  const items = violations.map((v, i) => {
    const same = (p) => p.trick === v.trick && p.seat === v.seat;
    const byRules = penalties.filter((p) => same(p) && p.ruling == null);
    const ruled = penalties.filter((p) => same(p) && p.ruling != null && rulings[p.ruling] && rulings[p.ruling].rule === v.rule);
    const where = v.trick == null ? playerName(v.seat) : t("rulings.where", { name: playerName(v.seat), trick: v.trick + 1 });
    let html = '<li class="ruling-item" data-violation="' + i + '" data-rule="' + esc(v.rule) + '"><div><strong>' + esc(t("rule." + v.rule)) +
      "</strong> · " + esc(where) + '</div><p class="hint">' + esc(alertText(texts.violations, i, v.detail)) + "</p>";
    byRules.forEach((p) => {
      html += '<p class="by-rules">' + esc(p.points ? t("rulings.by_rules", { p: Math.abs(p.points) }) : t("rulings.by_rules_level")) + "</p>";
    });
    ruled.forEach((p) => {
      const r = rulings[p.ruling];
      html += '<p class="ruled" data-ruling="' + p.ruling + '">' + esc(r.levels ? t("rulings.applied_level", { n: r.levels }) :
        t("rulings.applied", { p: r.points })) + (live ? ' <button type="button" class="ruling-remove write-only" data-ruling="' +
        p.ruling + '">' + esc(t("rulings.remove")) + "</button>" : "") + "</p>";
    });
    if (live && !byRules.length && !ruled.length) html += rulingActions(offers[i], v.proven);
    return html + "</li>";
  });
  return '<section class="rulings" data-deal="' + d + '"><h3>' + esc(t("rulings.title")) + "</h3>" +
    (items.length ? '<ul class="ruling-list">' + items.join("") + "</ul>" : '<p class="hint">' + esc(t("rulings.none")) + "</p>") + "</section>";
}

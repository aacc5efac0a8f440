/* What the live page enters into the deal: the bids (亮主 / 反主), the deal's own settings (trump,
 * dealer, the 找朋友 calls), a play by hand (typed or clicked), the kitty and the next deal.
 * Which bids would stand, how many friends are called and which cards may be called are the server's. */
import {
  VOCABULARY, api, cardLabel, cardSvg, esc, page, playerName, players, setText, showState, t,
} from "./client.js";
import { currentDealIndex } from "./board.js";
import { bindConcede, renderConcede } from "./concede.js";
import { bindManual, renderManual } from "./manual.js";
import { bindPoints, renderPoints } from "./points.js";

let bidSeat = null;
let dealFormDirty = false;

export function renderEntry(deal) {
  renderBids(deal);
  renderDealForm(deal);
  renderManual();
  renderPoints();
  renderConcede();
}

/* The bids the rules core says would stand now (data.view.bidding): a seat, then one of its offers. */
function renderBids(deal) {
  const box = document.getElementById("bids");
  const bidding = page.data.view.bidding;
  const started = (deal.tricks || []).length > 0 || !bidding;
  box.classList.toggle("disabled", started);
  document.getElementById("bid-seats").innerHTML = players().map((name, seat) => '<button type="button" role="radio" aria-checked="' +
    (bidSeat === seat) + '" class="seat-pick' + (bidSeat === seat ? " picked" : "") + '" data-seat="' + seat + '"' +
    (started ? " disabled" : "") + ">" + esc(name) + "</button>").join("");
  const offers = bidding && bidSeat != null ? bidding.offers[bidSeat] || [] : [];
  document.getElementById("bid-cards").innerHTML = offers.length ? offers.map((cards) => '<button type="button" class="bid-card" data-cards="' +
    esc(cards.join(" ")) + '" aria-label="' + esc(t("action.bid") + " " + cards.map(cardLabel).join(" ")) + '"' + (started ? " disabled" : "") + ">" +
    cards.map((c) => '<span class="card small">' + cardSvg(c) + "</span>").join("") + "</button>").join("") :
    started || bidSeat == null ? '<button type="button" class="bid-card" disabled hidden></button>' :
      '<p class="hint none">' + esc(t("bids.nothing")) + "</p>";
  const standing = bidding && bidding.standing;
  setText("bid-standing", standing ? t("bids.standing", { name: playerName(standing.seat), cards: standing.cards.map(cardLabel).join(" ") }) : "");
  const bids = deal.bids || [];
  const verdicts = bidding ? bidding.verdicts : [];
  document.getElementById("bid-list").innerHTML = bids.length ? bids.map((b, i) => "<li" + (verdicts[i] ? ' class="not-standing"' : "") +
    ">" + esc(playerName(b.seat)) + ": " + esc(b.cards.map(cardLabel).join(" ")) + (verdicts[i] ? esc(t("bids.not_standing")) : "") +
    "</li>").join("") : '<li class="none">' + esc(t("bids.none")) + "</li>";
  document.getElementById("bid-withdraw").hidden = started || !bids.length;
}

/* A 找朋友 call's two fields: the card (those the server says may be called) and which copy of it. */
export function friendRowHtml(call, copies, i18n) {
  const label = (key) => "<span" + (i18n ? ' data-i18n="' + key + '"' : "") + ">" + esc(t(key)) + "</span>";
  const nths = [];
  for (let n = 1; n <= copies; n += 1) nths.push("<option" + (n === call.nth ? " selected" : "") + ">" + n + "</option>");
  return '<div class="friend-row"><label>' + label("setup.friend_card") + ' <select name="friend_card">' +
    (VOCABULARY.callable || []).map((c) => '<option value="' + c + '"' + (c === call.card ? " selected" : "") + ">" +
    esc(cardLabel(c)) + "</option>").join("") + "</select></label> <label>" + label("setup.friend_nth") +
    ' <select name="friend_nth">' + nths.join("") + "</select></label></div>";
}

/* The chosen 找朋友 calls of a form. */
export function friendCalls(form) {
  const cards = Array.from(form.querySelectorAll("select[name=friend_card]")).map((el) => el.value);
  const nths = Array.from(form.querySelectorAll("select[name=friend_nth]")).map((el) => Number(el.value));
  return cards.map((c, i) => ({ card: c, nth: nths[i] }));
}

/* The deal's own settings, as the deal is (never the new-game form's): trump, dealer, the 找朋友 call. */
function renderDealForm(deal) {
  const form = document.getElementById("deal-form");
  if (!form) return;
  const view = page.data.view;
  const started = (deal.tricks || []).length > 0;
  document.getElementById("deal-settings").classList.toggle("disabled", started);
  document.getElementById("apply-deal").disabled = started;
  const byBid = Boolean(view.bidding && view.bidding.standing);
  document.getElementById("deal-form-bid").hidden = !byBid;
  form.trump.disabled = started || byBid;
  form.dealer.disabled = started || byBid;
  if (!dealFormDirty) {
    form.dealer.innerHTML = players().map((name, seat) => '<option value="' + seat + '">' + esc(name) + "</option>").join("");
    form.trump.value = deal.trump;
    form.dealer.value = String(deal.dealer);
    const box = document.getElementById("deal-friends");
    const count = view.friends_count || 0; // the scorer's: how many friends the dealer calls
    box.hidden = count === 0;
    const calls = deal.friends || [];
    let html = '<span class="label">' + esc(t("deal.friends")) + "</span>";
    for (let i = 0; i < count; i += 1) html += friendRowHtml(calls[i] || { card: i ? "AH" : "AS", nth: 2 }, view.decks, false);
    box.innerHTML = html;
  }
  const levels = view.deals[currentDealIndex()].levels_before;
  setText("deal-form-level", t("dealform.level", { level: levels[Number(form.dealer.value)] || deal.level }));
}

function dealFormBody() {
  const form = document.getElementById("deal-form");
  const body = {};
  if (!form.trump.disabled) { body.trump = form.trump.value; body.dealer = Number(form.dealer.value); }
  const calls = friendCalls(form);
  if (calls.length) body.friends = calls;
  return body;
}

/* ``reload``: fetch the state and draw it; ``redraw``: draw the state held again. */
export function bindEntry(reload, redraw) {
  document.addEventListener("click", (event) => {
    const seatPick = event.target.closest(".seat-pick");
    if (seatPick) { bidSeat = Number(seatPick.dataset.seat); redraw(); document.querySelector(".seat-pick.picked").focus(); return; }
    const bidCard = event.target.closest(".bid-card[data-cards]");
    if (bidCard && bidSeat != null) api("/api/bid", { seat: bidSeat, cards: bidCard.dataset.cards.split(" ") }).then(showState).catch(() => {});
  });
  document.getElementById("bid-withdraw").addEventListener("click", () => { api("/api/bid/withdraw", {}).then(showState).catch(() => {}); });
  const dealForm = document.getElementById("deal-form");
  dealForm.addEventListener("change", () => { dealFormDirty = true; redraw(); });
  dealForm.addEventListener("submit", (event) => {
    event.preventDefault();
    api("/api/deal", dealFormBody()).then((data) => { dealFormDirty = false; showState(data); }).catch(() => {});
  });
  const kitty = (form, field) => form.addEventListener("submit", (event) => {
    event.preventDefault();
    api("/api/kitty", { cards: event.target.cards.value }, field).then((data) => { event.target.cards.value = ""; showState(data); }).catch(() => {});
  });
  kitty(document.getElementById("kitty-wait-form"), "kitty-wait-error");
  kitty(document.getElementById("kitty-form"), "kitty-error");
  document.getElementById("kitty-unknown").addEventListener("click", () => { api("/api/kitty", { unknown: true }).then(showState).catch(() => {}); });
  document.getElementById("next-deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    api("/api/next-deal", { trump: event.target.trump.value }).then(showState).catch(() => {});
  });
  bindManual();
  bindPoints(reload, redraw);
  bindConcede();
}

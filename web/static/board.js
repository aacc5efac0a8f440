/* The table as a state shows it, on the live page and in the replay alike: the deal's facts, the
 * felt with its seats and the trick, the score, the sides' levels, the alerts, the trick history
 * and the level chart. Every figure comes from the state (record, audit, view): nothing is derived
 * here by a rule (the cards of a seat's play are the audit's, by seat). */
import { PROFILES, cardHtml, cardLabel, esc, page, playerName, players, profileLabel, setText, t, trumpLabel, words } from "./client.js";
import { renderSummary } from "./settlement.js";

/* What the event stream marked as new (live.js sets them): the newest play, the violations just found. */
export const fresh = { play: null, violations: new Set() };

export function currentDealIndex() { return page.data.state.record.deals.length - 1; }

/* The audit's play of ``seat`` in a trick (its cards in the record's order), or null. */
export function playOf(trickAudit, seat) {
  const play = trickAudit ? (trickAudit.plays || []).find((p) => p.seat === seat) : null;
  return play || null;
}

export function isUnconfirmed(trick, seat, index) {
  return (trick.unconfirmed || []).some((u) => u[0] === seat && u[1] === index);
}

function isCorrected(trick, seat, index) {
  return (trick.corrections || []).some((c) => c.seat === seat && c.index === index);
}

function cardsOfPlay(dealIndex, trickIndex, trick, trickAudit, seat) {
  // a play the camera did not see (the record's missing): said as such until a person enters it
  if ((trick.missing || []).includes(seat)) return '<span class="missing-play" title="' + esc(t("play.missing_title")) + '">' +
    esc(t("play.missing")) + "</span>";
  const play = playOf(trickAudit, seat);
  return (play ? play.cards : []).map((card, index) => {
    const extra = [];
    if (isUnconfirmed(trick, seat, index)) extra.push("unconfirmed");
    if (isCorrected(trick, seat, index)) extra.push("corrected");
    return cardHtml(card, { deal: dealIndex, trick: trickIndex, seat: seat, index: index }, extra);
  }).join("");
}

function trumpedTrick(d, ti) {
  const trumped = page.data.view.trumped;
  return Boolean(trumped && trumped[d] && trumped[d][ti]);
}

function trumpedBadge() {
  return ' <span class="badge trumped" title="' + esc(t("trick.trumped_title")) + '">' + esc(t("trick.trumped")) + "</span>";
}

/* The whole table for page.data; false when there is no deal to draw. */
export function renderBoard() {
  const data = page.data;
  const record = data.state.record;
  if (data.session) setText("session-name", data.session.name);
  if (!record.deals.length) return false;
  const d = currentDealIndex();
  const deal = record.deals[d];
  const dealAudit = data.state.audit.deals[d] || { tricks: [], violations: [] };
  renderDealFacts(deal, d);
  renderFelt(deal, d, dealAudit);
  renderScore(d);
  renderLevels(d);
  renderAlerts();
  renderSummary(deal, d, dealAudit);
  renderHistory();
  renderRulesAbout();
  const chart = document.getElementById("levels-chart");
  // a chart of one point says nothing: it appears once the first deal is scored
  if (chart) chart.innerHTML = data.view.level_history.length > 1 ? data.view.levels_chart :
    '<p class="empty">' + esc(t("levels.chart_empty")) + "</p>";
  return true;
}

function renderDealFacts(deal, d) {
  const view = page.data.view;
  setText("deal-heading", t("deal.n", { n: d + 1 }));
  const facts = [
    [t("deal.level"), deal.level],
    [t("deal.trump"), trumpLabel(deal.trump), deal.trump === "H" || deal.trump === "D" ? "red" : ""],
    [t("deal.dealer"), playerName(deal.dealer)],
    [t("deal.profile"), profileLabel(view.profile) + (PROFILES[view.profile] &&
      PROFILES[view.profile].decks === view.decks ? "" : " · " + view.decks + " " + t("deal.decks"))],
  ];
  if (deal.friends && deal.friends.length) {
    const found = view.deals[d].friends;
    facts.push([t("deal.friends"), deal.friends.map((f, i) => t("setup.friend", { nth: f.nth, card: cardLabel(f.card) }) +
      (found[i] && found[i].seat != null ? " → " + playerName(found[i].seat) : "")).join("、")]);
  }
  document.getElementById("deal-facts").innerHTML = facts.map((f) =>
    "<div><dt>" + esc(f[0]) + '</dt><dd class="' + (f[2] || "") + '">' + esc(f[1]) + "</dd></div>").join("");
}

function seatPosition(seat, count) {
  // seat 0 at the bottom, then counter-clockwise (right, top, left), as docs/TABLE.md says
  const angle = Math.PI / 2 - (seat * 2 * Math.PI) / count;
  return { x: 50 + 41 * Math.cos(angle), y: 50 + 38 * Math.sin(angle) };
}

function seatBadges(seat, deal, dealerSide, winner, next) {
  const view = page.data.view;
  const badges = [];
  if (seat === deal.dealer) badges.push('<span class="badge dealer">' + esc(t("seat.dealer")) + "</span>");
  else if (view.friends && dealerSide.includes(seat)) badges.push('<span class="badge partner">' + esc(t("seat.friend")) + "</span>");
  else if (!view.friends) badges.push('<span class="badge ' + (dealerSide.includes(seat) ? "partner" : "defender") + '">' +
    esc(dealerSide.includes(seat) ? t("seat.partner") : t("seat.defender")) + "</span>");
  if (winner === seat) badges.push('<span class="badge winner">' + esc(t("seat.winner")) + "</span>");
  if (next) badges.push('<span class="badge next">' + esc(t("seat.next")) + "</span>");
  return badges.join(" ");
}

function renderFelt(deal, d, dealAudit) {
  const data = page.data;
  const count = players().length;
  const tricks = deal.tricks || [];
  const ti = tricks.length - 1;
  const trick = ti >= 0 ? tricks[ti] : null;
  const trickAudit = ti >= 0 ? dealAudit.tricks[ti] : null;
  const complete = trick && (trick.points != null || trick.plays.length === count); // 只记分: a trick by its points is whole
  const winner = complete && trickAudit ? trickAudit.winner : null;
  const dealerSide = data.view.deals[d].dealer_side;
  const expected = data.state.expected_seat;
  let html = "";
  for (let seat = 0; seat < count; seat += 1) {
    const pos = seatPosition(seat, count);
    const next = page.mode === "live" && !complete && seat === expected;
    const classes = ["seat"];
    if (seat === deal.dealer) classes.push("is-dealer");
    if (dealerSide.includes(seat)) classes.push("dealer-side");
    if (next) classes.push("is-next");
    if (winner === seat) classes.push("is-winner");
    if (trick && trick.leader === seat) classes.push("is-leader");
    const play = trick ? playOf(trickAudit, seat) : null;
    if (play && (play.violations || []).length) classes.push("has-violation");
    const last = fresh.play;
    if (last && trick && last.deal === d && last.trick === ti && last.seat === seat) classes.push("fresh");
    // seats near the left or right edge hug it, so their cards never leave the table
    const place = pos.x > 72 ? "right:1%;transform:translate(0,-50%)" : pos.x < 28 ? "left:1%;transform:translate(0,-50%)" :
      "left:" + pos.x.toFixed(1) + "%";
    html += '<div class="' + classes.join(" ") + '" data-seat="' + seat + '" style="' + place + ";top:" + pos.y.toFixed(1) + '%">' +
      '<div class="seat-head"><span class="seat-name">' + esc(playerName(seat)) + '</span> <span class="seat-level">' +
      esc(data.view.levels[seat]) + "</span> " + seatBadges(seat, deal, dealerSide, winner, next) + "</div>" +
      '<div class="play">' + (trick ? cardsOfPlay(d, ti, trick, trickAudit, seat) : "") + "</div></div>";
  }
  let centre = "";
  if (trick) {
    centre = '<div class="trick-no">' + esc(t("trick.n", { n: ti + 1 })) + (trick.points != null ?
      ' <span class="badge points-only">' + esc(t("points.trick_tag")) + "</span>" : "") + "</div>";
    if (trickAudit && trickAudit.points != null) {
      centre += '<div class="trick-points"><span id="trick-points">' + esc(trickAudit.points) + "</span> " + esc(t("trick.points")) + "</div>";
    }
    if (winner != null) centre += '<div class="trick-winner">' + esc(t("trick.won_by", { name: playerName(winner) })) +
      (trumpedTrick(d, ti) ? trumpedBadge() : "") + (trickAudit.provisional ? " " + esc(t("trick.provisional")) : "") + "</div>";
  } else {
    centre = '<div class="trick-no">' + esc(t("trick.none")) + "</div>";
  }
  html += '<div class="centre" id="trick-centre" data-trick="' + ti + '">' + centre + "</div>";
  const felt = document.getElementById("felt");
  felt.innerHTML = html;
  felt.dataset.players = String(count);
  renderHint(d);
}

/* "You must play …": the seat to play and what the rules require, when the record knows the hands. */
function renderHint(d) {
  const el = document.getElementById("expected");
  if (!el) return;
  const data = page.data;
  const hint = data.view.hint;
  const expected = data.state.expected_seat;
  el.classList.toggle("has-hint", Boolean(hint));
  if (hint) {
    el.dataset.seat = String(hint.seat);
    el.textContent = words(hint.line);
    return;
  }
  delete el.dataset.seat;
  el.textContent = page.mode === "live" && expected != null && data.state.audit.deals[d] &&
    data.state.audit.deals[d].outcome == null ? playerName(expected) + " · " + t("seat.next") : "";
}

/* The defenders' card points while the deal is played; once it is settled, the total the settlement
   counts (with the kitty and the penalties), labelled as such, the card points beside it. */
function renderScore(d) {
  const view = page.data.view;
  const points = view.deals[d].defender_points;
  const dealAudit = page.data.state.audit.deals[d];
  const settled = Boolean(dealAudit && dealAudit.outcome && dealAudit.total_defender_points != null &&
    (!view.settle_ready || view.settle_ready[d]));
  const out = document.getElementById("defender-points");
  const before = out.textContent;
  out.textContent = settled ? String(dealAudit.total_defender_points) : points == null ? "–" : String(points);
  out.dataset.shows = settled ? "total" : "cards";
  if (before !== out.textContent) { out.classList.remove("bump"); void out.offsetWidth; out.classList.add("bump"); }
  const heading = document.getElementById("score-heading");
  if (heading) { heading.dataset.i18n = settled ? "score.total" : "score.defenders"; heading.textContent = t(heading.dataset.i18n); }
  const threshold = view.threshold ? (settled ? "" : "/ ") + t("score.of", { t: view.threshold }) : "";
  // a play not seen (the audit's provisional): the points and the settlement hold for the cards seen
  const provisional = dealAudit && dealAudit.provisional ? " · " + t("score.provisional") : "";
  setText("threshold", (settled ? t("score.cards", { p: points }) + " · " + threshold : threshold) + provisional);
  // while the deal is played: 还差 N 分上台 and 剩余分, the server's figures (web/view.py)
  const playing = !settled && !(dealAudit && dealAudit.outcome);
  const toGo = view.deals[d].to_take_over;
  setText("to-take-over", !playing || toGo == null ? "" : toGo > 0 ? t("score.to_go", { n: toGo }) : t("score.enough"));
  const stillOut = view.deals[d].points_out;
  setText("points-out", !playing || stillOut == null ? "" : t("score.out", { n: stillOut }));
}

function renderLevels(d) {
  const view = page.data.view;
  const dealerSide = view.deals[d].dealer_side;
  const items = view.sides.map((side, number) => {
    const level = view.levels[side.seats[0]];
    const dealing = side.seats.some((s) => dealerSide.includes(s));
    return '<li class="side side-' + number + (dealing ? " dealing" : "") + '" data-side="' + number + '"><span class="side-name">' +
      esc(side.name) + '</span> <span class="side-level">' + esc(level) + "</span>" +
      (dealing ? ' <span class="badge dealer">' + esc(t("seat.dealer")) + "</span>" : "") + "</li>";
  });
  document.getElementById("team-levels").innerHTML = items.join("");
}

/* The scorer's texts come translated in data.view (web/explain.py): {zh, en} per violation and penalty. */
export function alertText(texts, index, fallback) {
  const text = texts && texts[index];
  return text ? words(text) : String(fallback == null ? "" : fallback);
}

function alertWhere(d, trick, rule, multipleDeals) {
  const deal = multipleDeals ? t("deal.n", { n: d + 1 }) + " · " : "";
  if (trick == null) return '<span class="alert-where">' + esc(deal + t(rule === "bad-kitty" ? "alerts.kitty" : "alerts.bidding")) + "</span>";
  return '<a class="alert-where" href="#trick-' + d + "-" + trick + '">' + esc(deal + t("trick.n", { n: trick + 1 })) + "</a>";
}

/* A penalty's words: who is penalized and which side gains or loses the points (the audit's sign:
   added to the defenders when the dealer's side is penalized), or the level it costs. */
function penaltyTitle(p) {
  if (!p.points) return t("penalty.level", { name: playerName(p.seat) });
  return t(p.points > 0 ? "penalty.defenders_gain" : "penalty.defenders_lose", { name: playerName(p.seat), p: Math.abs(p.points) });
}

/* The unsure cards a violation rests on, each named with its trick and player: confirm them first. */
function toCheckHtml(deal, entries) {
  if (!entries || !entries.length) return "";
  const cards = entries.map(([trick, seat, index]) => {
    const play = ((deal.tricks[trick] || {}).plays || []).find((p) => p.seat === seat);
    const card = play && play.cards[index] != null ? cardLabel(play.cards[index]) : "?";
    return t("alerts.to_check_card", { trick: trick + 1, name: playerName(seat), card: card });
  });
  return '<p class="alert-check">' + esc(t("alerts.to_check_cards", { cards: cards.join(t("alerts.list_sep")) })) + "</p>";
}

/* The current deal's alerts first; an earlier deal's are folded away below them. */
function renderAlerts() {
  const data = page.data;
  const deals = data.state.audit.deals;
  const items = [];
  const earlier = [];
  const multiple = deals.length > 1;
  for (let d = deals.length - 1; d >= 0; d -= 1) {
    if (d === deals.length - 2) { items.push(""); } // the earlier deals' start
    const violations = deals[d].violations || [];
    const texts = data.view.deals[d] || {};
    for (let i = violations.length - 1; i >= 0; i -= 1) {
      const v = violations[i];
      const key = [d, v.trick, v.seat, v.rule].join(":");
      // to check: the audit found it, but it rests on cards the camera is unsure of (never shown as proven)
      const status = v.proven ? "proven" : (v.to_check || []).length ? "to-check" : "suspected";
      items.push('<li class="alert ' + status + (fresh.violations.has(key) ? " fresh" : "") +
        '" data-rule="' + esc(v.rule) + '" data-deal="' + d + '" data-trick="' + v.trick + '" data-seat="' + v.seat + '">' +
        '<div class="alert-head"><strong>' + esc(t("rule." + v.rule)) + '</strong> <span class="badge ' +
        status + '">' + esc(t("alerts." + status)) + "</span></div>" +
        '<p class="alert-detail" data-detail="' + esc(v.detail) + '">' + alertWhere(d, v.trick, v.rule, multiple) + esc(t("alerts.colon")) +
        esc(alertText(texts.violations, i, v.detail)) + "</p>" + toCheckHtml(deals[d], v.to_check) + "</li>");
    }
    (deals[d].penalties || []).forEach((p, i) => {
      items.push('<li class="alert penalty" data-rule="penalty" data-points="' + esc(p.points) + '"><div class="alert-head"><strong>' +
        esc(penaltyTitle(p)) + '</strong></div><p class="alert-detail" data-detail="' + esc(p.detail) + '">' +
        alertWhere(d, p.trick, "penalty", multiple) + esc(t("alerts.colon")) + esc(alertText(texts.penalties, i, p.detail)) + "</p></li>");
    });
  }
  const cut = items.indexOf("");
  if (cut >= 0) earlier.push(...items.splice(cut).slice(1));
  const now = items.length ? items.join("") : '<li class="none">' + esc(t("alerts.none")) + "</li>";
  const open = document.querySelector("#alerts .earlier-alerts details");
  document.getElementById("alerts").innerHTML = now + (earlier.length ? '<li class="earlier-alerts"><details' +
    (open && open.open ? " open" : "") + "><summary>" + esc(t("alerts.earlier", { n: earlier.length })) + '</summary><ul class="alerts">' +
    earlier.join("") + "</ul></details></li>" : "");
}

function renderHistory() {
  const data = page.data;
  const record = data.state.record;
  const count = players().length;
  const parts = [];
  for (let d = record.deals.length - 1; d >= 0; d -= 1) {
    const deal = record.deals[d];
    const dealAudit = data.state.audit.deals[d] || { tricks: [] };
    const tricks = deal.tricks || [];
    let rows = "";
    for (let ti = tricks.length - 1; ti >= 0; ti -= 1) {
      const trick = tricks[ti];
      const ta = dealAudit.tricks[ti] || {};
      const bad = (dealAudit.violations || []).some((v) => v.trick === ti);
      let cells = trick.points != null ? '<td class="points-only" colspan="' + count + '">' + esc(t("points.trick_tag")) +
        (trick.agreed ? " · " + esc(t("points.agreed_tag")) : "") + "</td>" : "";
      for (let seat = 0; seat < count && trick.points == null; seat += 1) {
        const play = playOf(ta, seat);
        const attempt = seat === trick.leader && trick.attempt ? '<span class="attempt">' + esc(t("history.attempt")) + ": " +
          esc(trick.attempt.map(cardLabel).join(" ")) + "</span>" : "";
        cells += '<td class="' + (seat === trick.leader ? "led" : "") + (play && (play.violations || []).length ? " illegal" : "") +
          '" data-seat="' + seat + '">' + cardsOfPlay(d, ti, trick, ta, seat) + attempt + "</td>";
      }
      rows += '<tr id="trick-' + d + "-" + ti + '" class="' + (bad ? "has-violation" : "") + '" data-trick="' + ti + '">' +
        "<th scope=\"row\">" + (ti + 1) + "</th>" + cells + "<td>" + esc(ta.winner != null ? playerName(ta.winner) : "") +
        (ta.winner != null && trumpedTrick(d, ti) ? trumpedBadge() : "") +
        '</td><td class="points">' + esc(ta.points != null ? ta.points : "") + "</td></tr>";
    }
    const head = "<tr><th>" + esc(t("history.trick")) + "</th>" + players().map((p) => "<th>" + esc(p) + "</th>").join("") +
      "<th>" + esc(t("history.winner")) + "</th><th>" + esc(t("history.points")) + "</th></tr>";
    const table = tricks.length ? '<div class="scroll"><table class="history-table"><thead>' + head + "</thead><tbody>" + rows +
      "</tbody></table></div>" : '<p class="empty">' + esc(t("history.none")) + "</p>";
    parts.push('<details class="deal-history" data-deal="' + d + '"' + (d === record.deals.length - 1 ? " open" : "") +
      "><summary>" + esc(t("deal.n", { n: d + 1 })) + resultRow(d) + "</summary>" + table + "</details>");
  }
  document.getElementById("history").innerHTML = parts.join("");
}

/* A deal's result (data.view.results, the audit's figures in words): points, 底牌 ×N, penalties, level change. */
function resultRow(d) {
  const view = page.data.view;
  const row = (view.results || [])[d];
  if (!row || !row.complete || (page.mode === "live" && !row.settled && view.settle_ready && !view.settle_ready[d])) return "";
  const kitty = row.kitty.length ? '<span class="cards">' + row.kitty.map((c) => cardHtml(c, null, ["tiny"])).join("") + "</span>" : "";
  return '<div class="deal-result" data-deal="' + d + '" data-total="' + esc(row.total) + '"><span class="words">' +
    esc(words(row.words)) + "</span>" + kitty + "</div>";
}

function renderRulesAbout() {
  const box = document.querySelector("#rules-about ul");
  const about = page.data.view.rules_words;
  if (!box || !about) return;
  box.innerHTML = about.facts.map((f) => "<li>" + esc(words(f)) + "</li>").join("");
}

/* The live table page, the replay viewer and the sessions list.
 * State comes from /api/state (live) or /api/replay/<id>/at/<step> (replay);
 * live changes arrive as server-sent events from /api/events, after which the
 * page reloads the state (and always on (re)connect, so nothing is missed). */
(function () {
  "use strict";

  const I18N = JSON.parse(document.getElementById("i18n").textContent);
  const PROFILES = JSON.parse(document.getElementById("profiles").textContent);
  const VOCABULARY = JSON.parse(document.getElementById("cards").textContent); // the scorer's card names
  const LEVELS = VOCABULARY.ranks;
  const SUITS = VOCABULARY.suits;
  const SUIT_SYMBOL = VOCABULARY.symbols;
  const CARD_NAMES = VOCABULARY.cards;

  let lang = document.documentElement.dataset.lang || "zh";
  let mode = "static";
  let data = null; // the last state payload
  let renderCount = 0;
  let lastPlay = null; // {deal, trick, seat} of the newest settled play, to animate it
  const freshViolations = new Set();
  let bidSeat = null;
  let picking = null;

  // --- words ------------------------------------------------------------------------
  function t(key, vars) {
    const entry = I18N[key];
    let text = entry ? entry[lang] || entry.zh : key;
    if (vars) for (const [k, v] of Object.entries(vars)) text = text.split("{" + k + "}").join(String(v));
    return text;
  }

  function applyI18n(root) {
    (root || document).querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    (root || document).querySelectorAll("[data-i18n-aria-label]").forEach((el) => {
      el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
    });
    (root || document).querySelectorAll("[data-i18n-placeholder]").forEach((el) => {
      el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
    });
  }

  function setLanguage(next) {
    lang = next;
    document.documentElement.dataset.lang = lang;
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    document.cookie = "lang=" + lang + "; path=/; max-age=31536000; samesite=lax";
    try { localStorage.setItem("tuolaji-lang", lang); } catch (e) { /* private mode */ }
    applyI18n();
    showError();
    Object.keys(fieldMessages).forEach((id) => fieldError(id, fieldMessages[id]));
    document.querySelectorAll("[data-seat-label]").forEach((el) => { el.textContent = t("setup.player", { n: el.dataset.seatLabel }); });
    if (mode === "live") { fillSetupDealers(); fillProfileAbout().catch(() => {}); }
    const stepLabel = document.getElementById("step-label");
    if (stepLabel && mode === "replay") stepLabel.textContent = t("replay.step", { n: replayStep, total: replayTotal });
    document.querySelectorAll("time.ts").forEach(formatTime);
    if (data) render();
  }

  function esc(value) {
    return String(value == null ? "" : value).replace(/[&<>"']/g, (c) => (
      { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  function cardLabel(name) {
    if (name === "SJ") return lang === "zh" ? "小王" : "small joker";
    if (name === "BJ") return lang === "zh" ? "大王" : "big joker";
    return SUIT_SYMBOL[name.slice(-1)] + name.slice(0, -1);
  }

  function profileLabel(name) {
    return I18N["profile." + name] ? t("profile." + name) : name;
  }

  function trumpLabel(trump) {
    return trump === "NT" ? t("trump.NT") : SUIT_SYMBOL[trump] || trump;
  }

  function cardSvg(name) {
    return '<svg class="card-img" viewBox="0 0 200 280" aria-hidden="true"><use href="#card-' + esc(name) + '"/></svg>';
  }

  /* One card: a button (corrections) in live mode, a plain figure otherwise. */
  function cardHtml(name, where, extra) {
    const classes = ["card"].concat(extra || []);
    const label = cardLabel(name);
    if (where && mode === "live") {
      return '<button type="button" class="' + classes.join(" ") + '" data-card="' + esc(name) + '" data-deal="' +
        where.deal + '" data-trick="' + where.trick + '" data-seat="' + where.seat + '" data-index="' + where.index +
        '" aria-label="' + esc(label + " — " + t("action.correct")) + '">' + cardSvg(name) + "</button>";
    }
    return '<span class="' + classes.join(" ") + '" data-card="' + esc(name) + '" role="img" aria-label="' +
      esc(label) + '">' + cardSvg(name) + "</span>";
  }

  // --- helpers over the record ----------------------------------------------------------
  function players() { return data.state.record.players; }
  function playerName(seat) { return players()[seat] != null ? players()[seat] : "#" + seat; }
  function currentDealIndex() { return data.state.record.deals.length - 1; }

  function playOf(trick, seat, count) {
    const position = (seat - trick.leader + count) % count;
    return position < trick.plays.length ? trick.plays[position] : null;
  }

  function isUnconfirmed(trick, seat, index) {
    return (trick.unconfirmed || []).some((u) => u[0] === seat && u[1] === index);
  }

  function isCorrected(trick, seat, index) {
    return (trick.corrections || []).some((c) => c.seat === seat && c.index === index);
  }

  function playViolations(trickAudit, seat) {
    if (!trickAudit) return [];
    const play = (trickAudit.plays || []).find((p) => p.seat === seat);
    return play ? play.violations || [] : [];
  }

  function cardsOfPlay(dealIndex, trickIndex, trick, seat, count) {
    const cards = playOf(trick, seat, count) || [];
    return cards.map((card, index) => {
      const extra = [];
      if (isUnconfirmed(trick, seat, index)) extra.push("unconfirmed");
      if (isCorrected(trick, seat, index)) extra.push("corrected");
      return cardHtml(card, { deal: dealIndex, trick: trickIndex, seat: seat, index: index }, extra);
    }).join("");
  }

  // --- rendering --------------------------------------------------------------------------
  function render() {
    renderCount += 1;
    document.body.dataset.renders = String(renderCount);
    const felt = document.getElementById("felt");
    if (!data || !data.state) {
      if (felt) felt.innerHTML = '<p class="empty">' + esc(t("session.none")) + "</p>";
      setText("session-name", "");
      renderFeed();
      if (mode === "live") { fillSetup(); document.getElementById("setup").open = true; }
      return;
    }
    if (data.session) setText("session-name", data.session.name);
    const record = data.state.record;
    if (!record.deals.length) return;
    const d = currentDealIndex();
    const deal = record.deals[d];
    const dealAudit = data.state.audit.deals[d] || { tricks: [], violations: [] };
    renderDealFacts(deal, d);
    renderFelt(deal, d, dealAudit);
    renderScore(d);
    renderLevels(deal, d);
    renderAlerts();
    renderSummary(deal, d, dealAudit);
    renderHistory();
    renderRulesAbout();
    const chart = document.getElementById("levels-chart");
    // a chart of one point says nothing: it appears once the first deal is scored
    if (chart) chart.innerHTML = data.view.level_history.length > 1 ? data.view.levels_chart :
      '<p class="empty">' + esc(t("levels.chart_empty")) + "</p>";
    if (mode === "live") {
      renderPending();
      renderBids(deal);
      renderDealForm(deal);
      renderManual();
      renderUndo();
      renderFeed();
      fillSetup();
    }
  }

  function setText(id, text) {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  }

  function renderDealFacts(deal, d) {
    setText("deal-heading", t("deal.n", { n: d + 1 }));
    const facts = [
      [t("deal.level"), deal.level],
      [t("deal.trump"), trumpLabel(deal.trump), deal.trump === "H" || deal.trump === "D" ? "red" : ""],
      [t("deal.dealer"), playerName(deal.dealer)],
      [t("deal.profile"), profileLabel(data.view.profile) + (PROFILES[data.view.profile] &&
        PROFILES[data.view.profile].decks === data.view.decks ? "" : " · " + data.view.decks + " " + t("deal.decks"))],
    ];
    if (deal.friends && deal.friends.length) {
      const found = data.view.deals[d].friends;
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

  function renderFelt(deal, d, dealAudit) {
    const count = players().length;
    const tricks = deal.tricks || [];
    const ti = tricks.length - 1;
    const trick = ti >= 0 ? tricks[ti] : null;
    const trickAudit = ti >= 0 ? dealAudit.tricks[ti] : null;
    const complete = trick && trick.plays.length === count;
    const winner = complete && trickAudit ? trickAudit.winner : null;
    const dealerSide = data.view.deals[d].dealer_side;
    const expected = data.state.expected_seat;
    let html = "";
    for (let seat = 0; seat < count; seat += 1) {
      const pos = seatPosition(seat, count);
      const classes = ["seat"];
      if (seat === deal.dealer) classes.push("is-dealer");
      if (dealerSide.includes(seat)) classes.push("dealer-side");
      if (mode === "live" && !complete && seat === expected) classes.push("is-next");
      if (winner === seat) classes.push("is-winner");
      if (trick && trick.leader === seat) classes.push("is-leader");
      const violations = trick ? playViolations(trickAudit, seat) : [];
      if (violations.length) classes.push("has-violation");
      if (lastPlay && trick && lastPlay.deal === d && lastPlay.trick === ti && lastPlay.seat === seat) classes.push("fresh");
      const badges = [];
      if (seat === deal.dealer) badges.push('<span class="badge dealer">' + esc(t("seat.dealer")) + "</span>");
      else if (data.view.friends && dealerSide.includes(seat)) badges.push('<span class="badge partner">' + esc(t("seat.friend")) + "</span>");
      else if (!data.view.friends) badges.push('<span class="badge ' + (dealerSide.includes(seat) ? "partner" : "defender") + '">' +
        esc(dealerSide.includes(seat) ? t("seat.partner") : t("seat.defender")) + "</span>");
      if (winner === seat) badges.push('<span class="badge winner">' + esc(t("seat.winner")) + "</span>");
      if (mode === "live" && !complete && seat === expected) badges.push('<span class="badge next">' + esc(t("seat.next")) + "</span>");
      // seats near the left or right edge hug it, so their cards never leave the table
      const place = pos.x > 72 ? "right:1%;transform:translate(0,-50%)" : pos.x < 28 ? "left:1%;transform:translate(0,-50%)" :
        "left:" + pos.x.toFixed(1) + "%";
      html += '<div class="' + classes.join(" ") + '" data-seat="' + seat + '" style="' + place + ";top:" + pos.y.toFixed(1) + '%">' +
        '<div class="seat-head"><span class="seat-name">' + esc(playerName(seat)) + '</span> <span class="seat-level">' +
        esc(data.view.levels[seat]) + "</span> " + badges.join(" ") + "</div>" +
        '<div class="play">' + (trick ? cardsOfPlay(d, ti, trick, seat, count) : "") + "</div></div>";
    }
    let centre = "";
    if (trick) {
      centre = '<div class="trick-no">' + esc(t("trick.n", { n: ti + 1 })) + "</div>";
      if (trickAudit && trickAudit.points != null) {
        centre += '<div class="trick-points"><span id="trick-points">' + esc(trickAudit.points) + "</span> " + esc(t("trick.points")) + "</div>";
      }
      if (winner != null) centre += '<div class="trick-winner">' + esc(t("trick.won_by", { name: playerName(winner) })) +
        (trumpedTrick(d, ti) ? ' <span class="badge trumped" title="' + esc(t("trick.trumped_title")) + '">' + esc(t("trick.trumped")) + "</span>" : "") + "</div>";
    } else {
      centre = '<div class="trick-no">' + esc(t("trick.none")) + "</div>";
    }
    html += '<div class="centre" id="trick-centre" data-trick="' + ti + '">' + centre + "</div>";
    const felt = document.getElementById("felt");
    felt.innerHTML = html;
    felt.dataset.players = String(count);
    renderHint(d);
  }

  function trumpedTrick(d, ti) {
    const trumped = data.view.trumped;
    return Boolean(trumped && trumped[d] && trumped[d][ti]);
  }

  function renderScore(d) {
    const points = data.view.deals[d].defender_points;
    const out = document.getElementById("defender-points");
    const before = out.textContent;
    out.textContent = points == null ? "–" : String(points);
    if (before !== out.textContent) { out.classList.remove("bump"); void out.offsetWidth; out.classList.add("bump"); }
    setText("threshold", data.view.threshold ? "/ " + t("score.of", { t: data.view.threshold }) : "");
  }

  function renderLevels(deal, d) {
    const dealerSide = data.view.deals[d].dealer_side;
    const items = data.view.sides.map((side, number) => {
      const level = data.view.levels[side.seats[0]];
      const dealing = side.seats.some((s) => dealerSide.includes(s));
      return '<li class="side side-' + number + (dealing ? " dealing" : "") + '" data-side="' + number + '"><span class="side-name">' +
        esc(side.name) + '</span> <span class="side-level">' + esc(level) + "</span>" +
        (dealing ? ' <span class="badge dealer">' + esc(t("seat.dealer")) + "</span>" : "") + "</li>";
    });
    document.getElementById("team-levels").innerHTML = items.join("");
  }

  /* The scorer's texts come translated in data.view (web/explain.py): {zh, en} per violation and penalty. */
  function alertWhere(d, trick, rule, multipleDeals) {
    const deal = multipleDeals ? t("deal.n", { n: d + 1 }) + " · " : "";
    if (trick == null) return '<span class="alert-where">' + esc(deal + t(rule === "bad-kitty" ? "alerts.kitty" : "alerts.bidding")) + "</span>";
    return '<a class="alert-where" href="#trick-' + d + "-" + trick + '">' + esc(deal + t("trick.n", { n: trick + 1 })) + "</a>";
  }

  function alertText(texts, index, fallback) {
    const text = texts && texts[index];
    return text ? text[lang] : String(fallback == null ? "" : fallback);
  }

  function renderAlerts() {
    const deals = data.state.audit.deals;
    const items = [];
    const multiple = deals.length > 1;
    for (let d = deals.length - 1; d >= 0; d -= 1) {
      const violations = deals[d].violations || [];
      const texts = data.view.deals[d] || {};
      for (let i = violations.length - 1; i >= 0; i -= 1) {
        const v = violations[i];
        const key = [d, v.trick, v.seat, v.rule].join(":");
        items.push('<li class="alert ' + (v.proven ? "proven" : "suspected") + (freshViolations.has(key) ? " fresh" : "") +
          '" data-rule="' + esc(v.rule) + '" data-deal="' + d + '" data-trick="' + v.trick + '" data-seat="' + v.seat + '">' +
          '<div class="alert-head"><strong>' + esc(t("rule." + v.rule)) + '</strong> <span class="badge ' +
          (v.proven ? "proven" : "suspected") + '">' + esc(v.proven ? t("alerts.proven") : t("alerts.suspected")) + "</span></div>" +
          '<p class="alert-detail" data-detail="' + esc(v.detail) + '">' + alertWhere(d, v.trick, v.rule, multiple) + esc(t("alerts.colon")) +
          esc(alertText(texts.violations, i, v.detail)) + "</p></li>");
      }
      (deals[d].penalties || []).forEach((p, i) => {
        items.push('<li class="alert penalty" data-rule="penalty"><div class="alert-head"><strong>' + esc(t("penalty.title")) +
          " " + esc(p.points) + '</strong></div><p class="alert-detail" data-detail="' + esc(p.detail) + '">' +
          alertWhere(d, p.trick, "penalty", multiple) + esc(t("alerts.colon")) + esc(alertText(texts.penalties, i, p.detail)) + "</p></li>");
      });
    }
    document.getElementById("alerts").innerHTML = items.length ? items.join("") :
      '<li class="none">' + esc(t("alerts.none")) + "</li>";
  }

  /* "You must play …": the seat to play and what the rules require, when the record knows the hands. */
  function renderHint(d) {
    const el = document.getElementById("expected");
    if (!el) return;
    const hint = data.view.hint;
    const expected = data.state.expected_seat;
    el.classList.toggle("has-hint", Boolean(hint));
    if (hint) {
      el.dataset.seat = String(hint.seat);
      el.textContent = hint.line[lang];
      return;
    }
    delete el.dataset.seat;
    el.textContent = mode === "live" && expected != null && data.state.audit.deals[d] &&
      data.state.audit.deals[d].outcome == null ? playerName(expected) + " · " + t("seat.next") : "";
  }

  function renderPending() {
    const list = document.getElementById("pending");
    const pending = data.state.pending || [];
    list.innerHTML = pending.length ? pending.map((p) =>
      '<li class="pending-item" data-deal="' + p.deal + '" data-trick="' + p.trick + '" data-seat="' + p.seat + '" data-index="' +
      p.index + '"><span>' + esc(t("pending.item", { trick: p.trick + 1, name: playerName(p.seat), index: p.index + 1 })) + "</span> " +
      (p.card ? cardHtml(p.card, { deal: p.deal, trick: p.trick, seat: p.seat, index: p.index }, ["small", "unconfirmed"]) : "") +
      ' <button type="button" class="confirm-btn">' + esc(t("action.confirm")) + "</button></li>").join("") :
      '<li class="none">' + esc(t("pending.none")) + "</li>";
  }

  function renderSummary(deal, d, dealAudit) {
    const box = document.getElementById("summary");
    if (!box) return;
    if (!dealAudit || dealAudit.outcome == null) { box.hidden = true; return; }
    box.hidden = false;
    const view = data.view;
    // the settlement waits for the kitty (or an explicit 底牌未知): without it the levels would be wrong
    const ready = view.settle_ready ? view.settle_ready[d] : true; // a replay shows the record as stored
    const wait = document.getElementById("kitty-wait");
    if (wait) wait.hidden = ready || mode !== "live";
    if (!ready) {
      document.getElementById("summary-body").innerHTML = '<p class="kitty-pending">' + esc(t("kitty.wait")) + "</p>";
      const pending = document.getElementById("next-deal-form");
      if (pending) pending.hidden = true;
      return;
    }
    const before = view.deals[d].levels_before;
    const after = dealAudit.levels_after || before;
    const kitty = deal.kitty || [];
    const rows = [];
    rows.push('<div class="summary-kitty"><span class="label">' + esc(t("summary.kitty")) + '</span><span class="cards">' +
      (kitty.length ? kitty.map((c) => cardHtml(c, null, ["small"])).join("") : deal.kitty_unknown ?
        '<span class="kitty-unknown">' + esc(t("summary.kitty_unknown")) + "</span>" : "–") + "</span></div>");
    if (dealAudit.kitty_won_by === "defenders") {
      rows.push('<p class="kitty-line">' + esc(t("summary.kitty_won", { p: dealAudit.kitty_points, m: dealAudit.kitty_multiplier })) +
        " = " + esc((dealAudit.kitty_points || 0) * (dealAudit.kitty_multiplier || 0)) + "</p>");
    } else {
      rows.push('<p class="kitty-line">' + esc(t("summary.kitty_dealer")) + " (" +
        esc(t("summary.kitty_points", { p: dealAudit.kitty_points, m: dealAudit.kitty_multiplier })) + ")</p>");
    }
    if (dealAudit.penalty_points) rows.push('<p class="penalty-line">' + esc(t("summary.penalties", { p: dealAudit.penalty_points })) + "</p>");
    rows.push('<p class="total"><span>' + esc(t("summary.total")) + '</span> <strong id="total-points">' +
      esc(dealAudit.total_defender_points) + "</strong></p>");
    const outcome = dealAudit.outcome;
    const result = (view.results || [])[d];
    rows.push('<p class="outcome">' + esc(result ? result.outcome_words[lang] : outcome.side === "defenders" ?
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
      if (mode === "live") rows.push('<button type="button" id="play-again" class="write-only">' + esc(t("action.play_again")) + "</button>");
    } else if (dealAudit.next_dealer != null) {
      rows.push('<p class="next-dealer">' + esc(t("summary.next_dealer")) + ": <strong>" + esc(playerName(dealAudit.next_dealer)) + "</strong></p>");
    }
    rows.push(rulingsHtml(d, dealAudit));
    const focused = document.activeElement && document.activeElement.classList.contains("ruling-points") ?
      { violation: document.activeElement.closest(".ruling-item").dataset.violation, value: document.activeElement.value } : null;
    document.getElementById("summary-body").innerHTML = rows.join("");
    if (focused) {
      const input = document.querySelector('.ruling-item[data-violation="' + focused.violation + '"] .ruling-points');
      if (input) { input.value = focused.value; input.focus(); }
    }
    const form = document.getElementById("next-deal-form");
    if (form) form.hidden = !(mode === "live" && d === currentDealIndex() && !dealAudit.game_winner);
  }

  function renderHistory() {
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
        let cells = "";
        for (let seat = 0; seat < count; seat += 1) {
          const violations = playViolations(ta, seat);
          const attempt = seat === trick.leader && trick.attempt ? '<span class="attempt">' + esc(t("history.attempt")) + ": " +
            esc(trick.attempt.map(cardLabel).join(" ")) + "</span>" : "";
          cells += '<td class="' + (seat === trick.leader ? "led" : "") + (violations.length ? " illegal" : "") + '" data-seat="' + seat + '">' +
            cardsOfPlay(d, ti, trick, seat, count) + attempt + "</td>";
        }
        rows += '<tr id="trick-' + d + "-" + ti + '" class="' + (bad ? "has-violation" : "") + '" data-trick="' + ti + '">' +
          "<th scope=\"row\">" + (ti + 1) + "</th>" + cells + "<td>" + esc(ta.winner != null ? playerName(ta.winner) : "") +
          (ta.winner != null && trumpedTrick(d, ti) ? ' <span class="badge trumped" title="' + esc(t("trick.trumped_title")) + '">' +
            esc(t("trick.trumped")) + "</span>" : "") +
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
    const results = data.view.results || [];
    const row = results[d];
    if (!row || !row.complete || (mode === "live" && !row.settled && data.view.settle_ready && !data.view.settle_ready[d])) return "";
    const kitty = row.kitty.length ? '<span class="cards">' + row.kitty.map((c) => cardHtml(c, null, ["tiny"])).join("") + "</span>" : "";
    return '<div class="deal-result" data-deal="' + d + '" data-total="' + esc(row.total) + '"><span class="words">' +
      esc(row.words[lang]) + "</span>" + kitty + "</div>";
  }

  /* The settlement's violations, each with its consequence: the rules' penalty, the table's ruling, or buttons to rule. */
  function rulingsHtml(d, dealAudit) {
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
          t("rulings.applied", { p: r.points })) + (mode === "live" ? ' <button type="button" class="ruling-remove write-only" data-ruling="' +
          p.ruling + '">' + esc(t("rulings.remove")) + "</button>" : "") + "</p>";
      });
      if (mode === "live" && !byRules.length && !ruled.length) {
        const offer = offers[i];
        html += '<div class="ruling-actions write-only">';
        if (offer) {
          html += '<button type="button" class="ruling-offer">' + esc(offer.points ? t("rulings.offer", { p: offer.points }) :
            t("rulings.offer_level")) + "</button> ";
        } else if (!v.proven) {
          html += '<span class="hint">' + esc(t("rulings.unproven")) + "</span> ";
        }
        html += '<label><span>' + esc(t("rulings.own")) + '</span> <input type="number" class="ruling-points" min="1" max="10000" step="5" ' +
          'inputmode="numeric" aria-label="' + esc(t("rulings.own_points")) + '"></label> <button type="button" class="ruling-own">' +
          esc(t("rulings.apply_points")) + '</button> <button type="button" class="ruling-level">' + esc(t("rulings.apply_level")) + "</button></div>";
      }
      return html + "</li>";
    });
    return '<section class="rulings" data-deal="' + d + '"><h3>' + esc(t("rulings.title")) + "</h3>" +
      (items.length ? '<ul class="ruling-list">' + items.join("") + "</ul>" : '<p class="hint">' + esc(t("rulings.none")) + "</p>") + "</section>";
  }

  function renderUndo() {
    const h = data.view.history;
    [["undo", h && h.undo], ["redo", h && h.redo]].forEach(([id, what]) => {
      const button = document.getElementById(id);
      if (!button) return;
      button.disabled = !what;
      button.dataset.change = what ? what.change : "";
      button.querySelector(".what").textContent = what ? t("undo.what", { what: what.words[lang] }) : "";
    });
  }

  function renderFeed() {
    const el = document.getElementById("connection");
    if (!el || mode !== "live") return;
    const feed = data && data.feed;
    let text = connected ? t("conn.live") : t("conn.lost");
    const session = data && data.session;
    const ours = feed && session && feed.session === session.id; // a feed only ever writes into its own session
    if (feed && ours) {
      if (feed.error) text += " · " + t("feed.error") + ": " + feed.error;
      else if (feed.running) text += " · " + t(feed.source === "demo" ? "source.demo" : feed.kind === "pipeline" ? (feed.source === "video" ? "feed.video" : "feed.pipeline") : "feed.record") + (feed.detail ? " " + feed.detail : "");
      else if (feed.finished) text += " · " + t(feed.source === "demo" ? "feed.demo_done" : "feed.done");
    }
    el.textContent = text;
    el.classList.toggle("lost", !connected);
    const line = document.getElementById("source-line");
    if (!line) return;
    if (!session) { line.textContent = ""; return; }
    const source = I18N["source." + session.source] ? t("source." + session.source) : session.source;
    let words = t("source.line", { source: source });
    if (ours && feed.finished && !feed.error && feed.source === "demo") words += " · " + t("feed.demo_done");
    if (feed && !ours && feed.running) words += " · " + t("source.elsewhere", { feed: t("source." + (feed.source || "record")),
      name: "#" + feed.session });
    line.textContent = words;
    line.dataset.source = session.source;
  }

  // --- live controls ------------------------------------------------------------------------
  /* The bids the rules core says would stand now (data.view.bidding): a seat, then one of its offers. */
  function renderBids(deal) {
    const box = document.getElementById("bids");
    const bidding = data.view.bidding;
    const started = (deal.tricks || []).length > 0 || !bidding;
    box.classList.toggle("disabled", started);
    const seats = players().map((name, seat) => '<button type="button" role="radio" aria-checked="' + (bidSeat === seat) +
      '" class="seat-pick' + (bidSeat === seat ? " picked" : "") + '" data-seat="' + seat + '"' + (started ? " disabled" : "") + ">" +
      esc(name) + "</button>").join("");
    document.getElementById("bid-seats").innerHTML = seats;
    const offers = bidding && bidSeat != null ? bidding.offers[bidSeat] || [] : [];
    const cardsHtml = offers.length ? offers.map((cards) => '<button type="button" class="bid-card" data-cards="' + esc(cards.join(" ")) +
      '" aria-label="' + esc(t("action.bid") + " " + cards.map(cardLabel).join(" ")) + '"' + (started ? " disabled" : "") + ">" +
      cards.map((c) => '<span class="card small">' + cardSvg(c) + "</span>").join("") + "</button>").join("") :
      started || bidSeat == null ? '<button type="button" class="bid-card" disabled hidden></button>' :
        '<p class="hint none">' + esc(t("bids.nothing")) + "</p>";
    document.getElementById("bid-cards").innerHTML = cardsHtml;
    const standing = bidding && bidding.standing;
    setText("bid-standing", standing ? t("bids.standing", { name: playerName(standing.seat), cards: standing.cards.map(cardLabel).join(" ") }) : "");
    const bids = deal.bids || [];
    const verdicts = bidding ? bidding.verdicts : [];
    document.getElementById("bid-list").innerHTML = bids.length ? bids.map((b, i) => "<li" + (verdicts[i] ? ' class="not-standing"' : "") +
      ">" + esc(playerName(b.seat)) + ": " + esc(b.cards.map(cardLabel).join(" ")) + (verdicts[i] ? esc(t("bids.not_standing")) : "") +
      "</li>").join("") : '<li class="none">' + esc(t("bids.none")) + "</li>";
    document.getElementById("bid-withdraw").hidden = started || !bids.length;
  }

  /* The deal's own settings, as the deal is (never the new-game form's): trump, dealer, the 找朋友 call. */
  let dealFormDirty = false;
  function renderDealForm(deal) {
    const form = document.getElementById("deal-form");
    if (!form) return;
    const started = (deal.tricks || []).length > 0;
    document.getElementById("deal-settings").classList.toggle("disabled", started);
    document.getElementById("apply-deal").disabled = started;
    const byBid = Boolean(data.view.bidding && data.view.bidding.standing);
    document.getElementById("deal-form-bid").hidden = !byBid;
    form.trump.disabled = started || byBid;
    form.dealer.disabled = started || byBid;
    if (!dealFormDirty) {
      form.dealer.innerHTML = players().map((name, seat) => '<option value="' + seat + '">' + esc(name) + "</option>").join("");
      form.trump.value = deal.trump;
      form.dealer.value = String(deal.dealer);
      renderDealFriends(deal);
    }
    const levels = data.view.deals[currentDealIndex()].levels_before;
    setText("deal-form-level", t("dealform.level", { level: levels[Number(form.dealer.value)] || deal.level }));
  }

  function renderDealFriends(deal) {
    const box = document.getElementById("deal-friends");
    const count = data.view.friends_count || 0;  // the scorer's: 找朋友 with 4-5 players calls one friend, 6-7 two
    box.hidden = count === 0;
    let html = '<span class="label">' + esc(t("deal.friends")) + "</span>";
    const calls = deal.friends || [];
    for (let i = 0; i < count; i += 1) {
      const call = calls[i] || { card: i ? "AH" : "AS", nth: 2 };
      html += '<div class="friend-row"><label><span>' + esc(t("setup.friend_card")) + '</span> <select name="friend_card">' +
        CARD_NAMES.slice(0, 52).map((c) => '<option value="' + c + '"' + (c === call.card ? " selected" : "") + ">" +
        esc(cardLabel(c)) + "</option>").join("") + '</select></label> <label><span>' + esc(t("setup.friend_nth")) +
        '</span> <select name="friend_nth">' + [1, 2, 3, 4].slice(0, data.view.decks).map((n) => "<option" +
        (n === call.nth ? " selected" : "") + ">" + n + "</option>").join("") + "</select></label></div>";
    }
    box.innerHTML = html;
  }

  function dealFormBody() {
    const form = document.getElementById("deal-form");
    const body = {};
    if (!form.trump.disabled) { body.trump = form.trump.value; body.dealer = Number(form.dealer.value); }
    const cards = Array.from(form.querySelectorAll("select[name=friend_card]")).map((el) => el.value);
    const nths = Array.from(form.querySelectorAll("select[name=friend_nth]")).map((el) => Number(el.value));
    if (cards.length) body.friends = cards.map((c, i) => ({ card: c, nth: nths[i] }));
    return body;
  }

  function renderManual() {
    const select = document.querySelector("#manual-form select[name=seat]");
    const keep = select.dataset.touched ? select.value : null;
    select.innerHTML = players().map((name, seat) => '<option value="' + seat + '">' + esc(name) + "</option>").join("");
    const expected = data.state.expected_seat;
    select.value = keep != null ? keep : expected != null ? String(expected) : "0";
  }

  let setupFilled = false;
  function fillSetup() {
    const form = document.getElementById("setup-form");
    if (!form || (setupFilled && form.contains(document.activeElement))) return;
    const record = data && data.state ? data.state.record : null;
    if (!setupFilled) {
      // a table nobody has played at yet (e.g. the camera's default) opens its set-up
      const feeding = data && data.feed && data.feed.running &&
        (data.feed.kind === "record" || (data.session && data.session.source === "demo"));
      if (record && !feeding && !record.deals.some((deal) => (deal.tricks || []).length)) document.getElementById("setup").open = true;
      const profile = record ? (typeof record.rules === "string" ? record.rules : record.rules.profile) : "standard-2deck";
      form.decks.value = String(PROFILES[profile] ? PROFILES[profile].decks : 2);
      fillProfiles(profile);
      fillCounts(record ? record.players.length : null);
      fillPlayers(record);
      fillProfileAbout().catch(() => {});
      if (record && record.deals.length) {
        const deal = record.deals[record.deals.length - 1];
        form.trump.value = deal.trump;
        form.dealer.value = String(deal.dealer);
      }
      setupFilled = true;
    }
  }

  function fillProfiles(selected) {
    const form = document.getElementById("setup-form");
    const decks = Number(form.decks.value);
    const names = Object.keys(PROFILES).filter((p) => PROFILES[p].decks === decks);
    form.profile.innerHTML = names.map((p) => '<option value="' + p + '">' + esc(profileLabel(p)) + "</option>").join("");
    if (selected && names.includes(selected)) form.profile.value = selected;
  }

  function fillCounts(count) {
    const form = document.getElementById("setup-form");
    const allowed = PROFILES[form.profile.value] ? PROFILES[form.profile.value].players : [4];
    form.count.innerHTML = allowed.map((n) => "<option>" + n + "</option>").join("");
    if (count && allowed.includes(count)) form.count.value = String(count);
  }

  const DEFAULT_NAMES = { zh: ["东", "南", "西", "北", "甲", "乙", "丙"], en: ["East", "South", "West", "North", "P5", "P6", "P7"] };

  function fillPlayers(record) {
    const form = document.getElementById("setup-form");
    const count = Number(form.count.value);
    const old = Array.from(document.querySelectorAll("#player-fields input[name=player]")).map((i) => i.value);
    const levels = record && record.start_levels ? record.start_levels : null;
    let html = "";
    for (let seat = 0; seat < count; seat += 1) {
      const name = record && record.players.length === count ? record.players[seat] : old[seat] || DEFAULT_NAMES[lang][seat];
      const level = levels && levels.length === count ? levels[seat] : "2";
      html += '<div class="player-row"><label><span data-seat-label="' + (seat + 1) + '">' + esc(t("setup.player", { n: seat + 1 })) +
        '</span> <input name="player" value="' +
        esc(name) + '" required autocomplete="off"></label> <label><span class="visually-hidden" data-i18n="setup.level">' + esc(t("setup.level")) +
        '</span><select name="level" data-seat="' + seat + '">' + LEVELS.map((l) => "<option" + (l === level ? " selected" : "") +
        ">" + l + "</option>").join("") + "</select></label></div>";
    }
    document.getElementById("player-fields").innerHTML = html;
    fillSetupDealers();
    const friends = document.getElementById("friend-fields");
    const friendCount = count === 5 ? 1 : count > 5 ? 2 : 0;
    friends.hidden = friendCount === 0;
    let fh = '<legend data-i18n="deal.friends">' + esc(t("deal.friends")) + "</legend>";
    for (let i = 0; i < friendCount; i += 1) {
      fh += '<div class="friend-row"><label><span data-i18n="setup.friend_card">' + esc(t("setup.friend_card")) + '</span> <select name="friend_card">' +
        CARD_NAMES.slice(0, 52).map((c) => '<option value="' + c + '"' + (c === (i ? "AH" : "AS") ? " selected" : "") + ">" +
        esc(cardLabel(c)) + "</option>").join("") + '</select></label> <label><span data-i18n="setup.friend_nth">' + esc(t("setup.friend_nth")) +
        '</span> <select name="friend_nth"><option>1</option><option selected>2</option><option>3</option></select></label></div>';
    }
    friends.innerHTML = fh;
  }

  /* The set-up's dealer choices: the players' names as typed, with their seats counted from 1. */
  function fillSetupDealers() {
    const form = document.getElementById("setup-form");
    const keep = form.dealer.value;
    const names = Array.from(form.querySelectorAll("input[name=player]")).map((i) => i.value.trim());
    form.dealer.innerHTML = names.map((name, seat) => '<option value="' + seat + '">' +
      esc(name ? t("setup.player_named", { n: seat + 1, name: name }) : t("setup.player", { n: seat + 1 })) + "</option>").join("");
    if (keep && Number(keep) < names.length) form.dealer.value = keep;
  }

  /* What the chosen profile (with the house rules chosen) means, in words: the server reads the rules core's options. */
  let aboutAsked = 0;
  async function fillProfileAbout() {
    const form = document.getElementById("setup-form");
    const list = document.getElementById("profile-about");
    if (!form || !list) return;
    const house = houseOptions();
    const profile = form.profile.value;
    const count = form.count.value;
    const known = PROFILES[profile] && PROFILES[profile].about ? PROFILES[profile].about[count] : null;
    let words = !Object.keys(house).length ? known : null;
    if (!words) {
      const asked = ++aboutAsked;
      const query = "?profile=" + encodeURIComponent(profile) + "&players=" + encodeURIComponent(count) +
        "&options=" + encodeURIComponent(JSON.stringify(house));
      words = await api("/api/rules" + query);
      if (asked !== aboutAsked) return;
    }
    list.innerHTML = words ? words.facts.map((f) => "<li>" + esc(f[lang]) + "</li>").join("") : "";
    list.dataset.words = JSON.stringify(words);
  }

  function houseOptions() {
    const options = {};
    document.querySelectorAll("#setup-form select[name=house]").forEach((select) => {
      if (select.value) options[select.dataset.option] = select.value;
    });
    return options;
  }

  function renderRulesAbout() {
    const box = document.querySelector("#rules-about ul");
    const words = data.view.rules_words;
    if (!box || !words) return;
    box.innerHTML = words.facts.map((f) => "<li>" + esc(f[lang]) + "</li>").join("");
  }

  function setupBody() {
    const form = document.getElementById("setup-form");
    const names = Array.from(form.querySelectorAll("input[name=player]")).map((i) => i.value.trim());
    const levels = Array.from(form.querySelectorAll("select[name=level]")).map((s) => s.value);
    const cards = Array.from(form.querySelectorAll("select[name=friend_card]")).map((s) => s.value);
    const nths = Array.from(form.querySelectorAll("select[name=friend_nth]")).map((s) => Number(s.value));
    const body = { name: form.name.value.trim(), profile: form.profile.value, players: names, levels: levels,
      trump: form.trump.value, dealer: Number(form.dealer.value) };
    if (cards.length) body.friends = cards.map((c, i) => ({ card: c, nth: nths[i] }));
    const house = houseOptions();
    if (Object.keys(house).length) body.options = house;
    return body;
  }

  /* 再来一局: a new session with the same players and rules, everyone back at 2. */
  async function playAgain() {
    const record = data.state.record;
    const profile = typeof record.rules === "string" ? record.rules : record.rules.profile;
    await api("/api/setup", { new: true, profile: profile, players: record.players, levels: record.players.map(() => "2"),
      trump: "NT", dealer: 0, name: (data.session ? data.session.name : "") + " · " + t("action.play_again") });
    setupFilled = false;
    await reload();
  }

  /* A penalty for a violation of the settled deal: the rules' (one click), the organiser's own points or a level; or taken back. */
  async function rule(button) {
    const d = Number(button.closest(".rulings").dataset.deal);
    if (button.classList.contains("ruling-remove")) {
      await api("/api/ruling/remove", { deal: d, ruling: Number(button.dataset.ruling) });
      return reload();
    }
    const item = button.closest(".ruling-item");
    const body = { deal: d, violation: Number(item.dataset.violation) };
    if (button.classList.contains("ruling-level")) body.levels = 1;
    if (button.classList.contains("ruling-own")) {
      const input = item.querySelector(".ruling-points");
      const points = Number(input.value);
      if (!Number.isInteger(points) || points <= 0) { input.setAttribute("aria-invalid", "true"); input.focus(); return; }
      body.points = points;
    }
    await api("/api/ruling", body);
    return reload();
  }

  // --- talking to the server ------------------------------------------------------------------
  let lastError = null; // {zh, en} of the last failed request, shown in the page's language
  function showError() {
    const error = document.getElementById("error");
    if (error && lastError) error.textContent = t("error.title") + t("alerts.colon") + lastError[lang];
  }

  // The table's token (only in a page that may write): sent with every change; without it the page is read-only.
  const tokenMeta = document.querySelector('meta[name="tuolaji-token"]');
  const writeToken = tokenMeta ? tokenMeta.content : null;

  /* ``field``: the id of the error line next to the field that sent the request (the error shows there). */
  async function api(path, body, field) {
    const headers = { "Content-Type": "application/json" };
    if (writeToken) headers["X-Tuolaji-Token"] = writeToken;
    const options = body === undefined ? {} : { method: "POST", headers: headers, body: JSON.stringify(body) };
    const response = await fetch(path, options);
    const json = await response.json().catch(() => ({}));
    const error = document.getElementById("error");
    if (!response.ok) {
      const message = json.message || { zh: json.error || String(response.status), en: json.error || String(response.status) };
      if (field) fieldError(field, message);
      else { lastError = message; if (error) { showError(); error.hidden = false; } }
      throw new Error(json.error || String(response.status));
    }
    if (field) fieldError(field, null);
    if (error) error.hidden = true;
    return json;
  }

  async function reload() {
    data = await api("/api/state");
    window.Tuolaji.state = data;
    render();
  }

  let reloadTimer = null;
  function scheduleReload() {
    if (reloadTimer) return;
    reloadTimer = setTimeout(() => { reloadTimer = null; reload().catch(() => {}); }, 60);
  }

  let connected = false;
  function connect() {
    const source = new EventSource("/api/events");
    source.onopen = () => { connected = true; renderFeed(); reload().catch(() => {}); };
    source.onerror = () => { connected = false; renderFeed(); };
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.type === "play-settled") lastPlay = { deal: event.deal, trick: event.trick, seat: event.seat };
      if (event.type === "violation-found") freshViolations.add([event.deal, event.trick, event.seat, event.rule].join(":"));
      if (event.type === "state-changed" && event.reason === "session") setupFilled = false;
      scheduleReload();
    };
    window.Tuolaji.source = source;
  }

  // --- the card picker (corrections and confirmations) ---------------------------------------
  function openPicker(where) {
    const record = data.state.record;
    const trick = record.deals[where.deal].tricks[where.trick];
    const unconfirmed = isUnconfirmed(trick, where.seat, where.index);
    picking = where;
    const dialog = document.getElementById("picker");
    document.getElementById("picker-title").textContent = t("picker.title", { trick: where.trick + 1, name: playerName(where.seat),
      index: where.index + 1, card: cardLabel(where.card) });
    document.getElementById("picker-note").hidden = !unconfirmed;
    document.getElementById("picker-grid").innerHTML = cardGridHtml("pick", where.card);
    document.getElementById("picker-input").value = "";
    fieldError("picker-error", null);
    dialog.showModal();
    const current = dialog.querySelector(".pick.current");
    (current || dialog.querySelector(".pick")).focus();
  }

  /* The 54 cards as buttons: the correction picker's grid, and the manual entry's. */
  function cardGridHtml(cls, current) {
    return CARD_NAMES.map((c) => '<button type="button" class="card ' + cls + (c === current ? " current" : "") + '" data-card="' + c +
      '" aria-label="' + esc(cardLabel(c)) + '">' + cardSvg(c) + "</button>").join("");
  }

  /* A typed card is read by the server (the scorer's one card parser: 红桃10, ♠A, 10H, 大王); a refused one
     keeps the dialog open with the reason next to the field. */
  async function submitCorrection(card) {
    const where = picking;
    try {
      await api("/api/correct", { deal: where.deal, trick: where.trick, seat: where.seat, index: where.index, card: card }, "picker-error");
    } catch (e) {
      document.getElementById("picker-input").focus();
      return;
    }
    document.getElementById("picker").close();
    picking = null;
    await reload();
  }

  const fieldMessages = {}; // id -> {zh, en}: redrawn in the other language by the toggle
  function fieldError(id, message) {
    fieldMessages[id] = message;
    const el = document.getElementById(id);
    if (!el) return;
    el.hidden = !message;
    el.textContent = message ? message[lang] : "";
    const form = el.closest("form");
    if (form) form.querySelectorAll("input[aria-describedby='" + id + "']").forEach((input) => {
      if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    });
  }

  /* Manual entry by clicking cards: each click adds the card to the field last used (the cards, or the failed throw's attempt). */
  let manualTarget = "cards";
  function manualField() { return document.querySelector("#manual-form input[name=" + manualTarget + "]"); }
  function renderManualChosen() {
    const input = document.querySelector("#manual-form input[name=cards]");
    const names = input.value.split(/\s+/).filter((n) => CARD_NAMES.includes(n));
    document.getElementById("manual-chosen").innerHTML = names.map((c) => cardHtml(c, null, ["small"])).join("");
  }

  async function confirmCard(where) {
    await api("/api/confirm", { deal: where.deal, trick: where.trick, seat: where.seat, index: where.index });
    await reload();
  }

  function whereOf(el) {
    return { deal: Number(el.dataset.deal), trick: Number(el.dataset.trick), seat: Number(el.dataset.seat),
      index: Number(el.dataset.index), card: el.dataset.card };
  }

  function bindLive() {
    document.addEventListener("click", (event) => {
      const cardButton = event.target.closest("button.card[data-trick]");
      if (cardButton && !cardButton.closest("#picker")) { if (writeToken) openPicker(whereOf(cardButton)); return; }
      const pick = event.target.closest("#picker .pick");
      if (pick) { submitCorrection(pick.dataset.card).catch(() => {}); return; }
      const confirmButton = event.target.closest(".confirm-btn");
      if (confirmButton) { confirmCard(whereOf(confirmButton.closest(".pending-item"))).catch(() => {}); return; }
      if (event.target.closest("#play-again")) { playAgain().catch(() => {}); return; }
      const ruling = event.target.closest(".ruling-offer, .ruling-own, .ruling-level, .ruling-remove");
      if (ruling) { rule(ruling).catch(() => {}); return; }
      const seatPick = event.target.closest(".seat-pick");
      if (seatPick) { bidSeat = Number(seatPick.dataset.seat); render(); document.querySelector(".seat-pick.picked").focus(); return; }
      const bidCard = event.target.closest(".bid-card[data-cards]");
      if (bidCard && bidSeat != null) {
        api("/api/bid", { seat: bidSeat, cards: bidCard.dataset.cards.split(" ") }).then(reload).catch(() => {});
      }
    });
    document.getElementById("picker-confirm").addEventListener("click", () => {
      const where = picking;
      const input = document.getElementById("picker-input").value.trim();
      if (input) { submitCorrection(input).catch(() => {}); return; }
      document.getElementById("picker").close();
      picking = null;
      confirmCard(where).catch(() => {});
    });
    document.getElementById("picker-input").addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      if (event.target.value.trim()) submitCorrection(event.target.value.trim()).catch(() => {});
    });
    document.getElementById("picker-grid").addEventListener("keydown", (event) => {
      const buttons = Array.from(document.querySelectorAll("#picker .pick"));
      const i = buttons.indexOf(document.activeElement);
      if (i < 0) return;
      const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 13, ArrowUp: -13 }[event.key];
      if (step) { event.preventDefault(); buttons[Math.max(0, Math.min(buttons.length - 1, i + step))].focus(); }
    });
    const form = document.getElementById("setup-form");
    form.decks.addEventListener("change", () => { fillProfiles(null); fillCounts(null); fillPlayers(null); });
    form.profile.addEventListener("change", () => { fillCounts(null); fillPlayers(null); });
    form.count.addEventListener("change", () => fillPlayers(null));
    form.addEventListener("change", (event) => {
      if (["decks", "profile", "count", "house"].includes(event.target.name)) fillProfileAbout().catch(() => {});
    });
    form.addEventListener("input", (event) => { if (event.target.name === "player") fillSetupDealers(); });
    form.addEventListener("change", (event) => {
      // partners share a level: changing one seat's level changes its partner's
      if (event.target.name !== "level" || Number(form.count.value) !== 4) return;
      const seat = Number(event.target.dataset.seat);
      form.querySelector('select[name=level][data-seat="' + ((seat + 2) % 4) + '"]').value = event.target.value;
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      // a session without plays yet (e.g. the camera's default table) is set up in place
      api("/api/setup", setupBody()).then(() => { setupFilled = false; document.getElementById("setup").open = false; return reload(); }).catch(() => {});
    });
    const dealForm = document.getElementById("deal-form");
    dealForm.addEventListener("change", () => { dealFormDirty = true; render(); });
    dealForm.addEventListener("submit", (event) => {
      event.preventDefault();
      api("/api/deal", dealFormBody()).then(() => { dealFormDirty = false; return reload(); }).catch(() => {});
    });
    document.getElementById("undo").addEventListener("click", () => { api("/api/undo", {}).then(reload).catch(() => {}); });
    document.getElementById("redo").addEventListener("click", () => { api("/api/redo", {}).then(reload).catch(() => {}); });
    document.getElementById("bid-withdraw").addEventListener("click", () => {
      api("/api/bid/withdraw", {}).then(reload).catch(() => {});
    });
    document.getElementById("kitty-wait-form").addEventListener("submit", (event) => {
      event.preventDefault();
      api("/api/kitty", { cards: event.target.cards.value }, "kitty-wait-error").then(() => { event.target.cards.value = ""; return reload(); }).catch(() => {});
    });
    document.getElementById("kitty-unknown").addEventListener("click", () => {
      api("/api/kitty", { unknown: true }).then(reload).catch(() => {});
    });
    document.getElementById("manual-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const f = event.target;
      const body = { seat: Number(f.seat.value), cards: f.cards.value };
      if (f.attempt.value.trim()) body.attempt = f.attempt.value;
      api("/api/play", body, "manual-error").then(() => {
        f.cards.value = ""; f.attempt.value = ""; manualTarget = "cards"; delete f.seat.dataset.touched; renderManualChosen(); return reload();
      }).catch(() => {});
    });
    document.getElementById("manual-grid").innerHTML = cardGridHtml("pick-add", null);
    document.getElementById("manual-grid").addEventListener("click", (event) => {
      const button = event.target.closest(".pick-add");
      if (!button) return;
      const input = manualField();
      input.value = (input.value.trim() ? input.value.trim() + " " : "") + button.dataset.card;
      fieldError("manual-error", null);
      renderManualChosen();
    });
    ["cards", "attempt"].forEach((name) => {
      const input = document.querySelector("#manual-form input[name=" + name + "]");
      input.addEventListener("focus", () => { manualTarget = name; });
      input.addEventListener("input", () => { fieldError("manual-error", null); renderManualChosen(); });
    });
    document.getElementById("manual-back").addEventListener("click", () => {
      const input = manualField();
      input.value = input.value.trim().split(/\s+/).slice(0, -1).join(" ");
      renderManualChosen();
    });
    document.getElementById("manual-clear").addEventListener("click", () => {
      manualField().value = "";
      fieldError("manual-error", null);
      renderManualChosen();
    });
    document.querySelector("#manual-form select[name=seat]").addEventListener("change", (e) => { e.target.dataset.touched = "1"; });
    document.getElementById("kitty-form").addEventListener("submit", (event) => {
      event.preventDefault();
      api("/api/kitty", { cards: event.target.cards.value }, "kitty-error").then(() => { event.target.cards.value = ""; return reload(); }).catch(() => {});
    });
    document.getElementById("next-deal-form").addEventListener("submit", (event) => {
      event.preventDefault();
      api("/api/next-deal", { trump: event.target.trump.value }).then(reload).catch(() => {});
    });
  }

  // --- replay ---------------------------------------------------------------------------------
  let replayTotal = 0;
  let replayStep = 0;
  let replayTimer = null;
  let replaySteps = [];

  async function replayGo(sessionId, step) {
    step = Math.max(0, Math.min(replayTotal, step));
    replayStep = step;
    const payload = await api("/api/replay/" + sessionId + "/at/" + step);
    if (step !== replayStep) return; // a later request won
    data = payload;
    window.Tuolaji.state = data;
    document.getElementById("timeline").value = String(step);
    document.getElementById("step-label").textContent = t("replay.step", { n: step, total: replayTotal });
    history.replaceState(null, "", "#" + step);
    render();
  }

  function replayToggle(sessionId) {
    const button = document.getElementById("replay-play");
    if (replayTimer) {
      clearInterval(replayTimer); replayTimer = null;
      button.dataset.i18n = "replay.play"; button.textContent = t("replay.play");
      return;
    }
    if (replayStep >= replayTotal) replayStep = 0;
    button.dataset.i18n = "replay.pause"; button.textContent = t("replay.pause");
    replayTimer = setInterval(() => {
      if (replayStep >= replayTotal) { replayToggle(sessionId); return; }
      replayGo(sessionId, replayStep + 1).catch(() => {});
    }, 700 / (window.Tuolaji.replaySpeed || 1)); // the replay's speed (evidence.js sets it)
  }

  // --- start-up -------------------------------------------------------------------------------
  function formatTime(el) {
    const ts = Number(el.dataset.ts);
    if (ts) el.textContent = new Date(ts * 1000).toLocaleString(lang === "zh" ? "zh-CN" : "en-GB");
  }

  function bindCommon() {
    document.getElementById("lang-toggle").addEventListener("click", () => setLanguage(lang === "zh" ? "en" : "zh"));
    document.addEventListener("keydown", (event) => {
      const typing = event.target.closest("input, select, textarea, dialog");
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "l" || event.key === "L") { event.preventDefault(); setLanguage(lang === "zh" ? "en" : "zh"); }
    });
    let stored = null;
    try { stored = localStorage.getItem("tuolaji-lang"); } catch (e) { /* private mode */ }
    const cookie = document.cookie.match(/(?:^|; )lang=(zh|en)/);
    if (!cookie && stored && stored !== lang) setLanguage(stored);
    document.querySelectorAll("time.ts").forEach(formatTime);
  }

  window.Tuolaji = {
    state: null,
    t: t,
    renders: () => renderCount,
    startStatic() {
      mode = "static";
      bindCommon();
      document.querySelectorAll("form.delete-form").forEach((form) => form.addEventListener("submit", (event) => {
        if (!window.confirm(t("sessions.delete_confirm"))) event.preventDefault();
      }));
    },
    startLive() {
      mode = "live";
      bindCommon();
      bindLive();
      reload().catch(() => {});
      connect();
    },
    async startReplay(sessionId) {
      mode = "replay";
      bindCommon();
      const timeline = await api("/api/replay/" + sessionId);
      replaySteps = timeline.steps;
      replayTotal = replaySteps.length;
      const slider = document.getElementById("timeline");
      slider.max = String(replayTotal);
      document.getElementById("timeline-marks").innerHTML = replaySteps.map((s, i) =>
        (s.position === 0 ? '<li style="left:' + ((100 * i) / Math.max(replayTotal, 1)).toFixed(2) + '%"></li>' : "")).join("");
      slider.addEventListener("input", () => replayGo(sessionId, Number(slider.value)).catch(() => {}));
      document.getElementById("replay-prev").addEventListener("click", () => replayGo(sessionId, replayStep - 1).catch(() => {}));
      document.getElementById("replay-next").addEventListener("click", () => replayGo(sessionId, replayStep + 1).catch(() => {}));
      document.getElementById("replay-play").addEventListener("click", () => replayToggle(sessionId));
      document.addEventListener("keydown", (event) => {
        if (event.target.closest("input:not([type=range]), select, textarea")) return;
        const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -4, PageDown: 4 };
        if (event.key in moves && event.target.id !== "timeline") { event.preventDefault(); replayGo(sessionId, replayStep + moves[event.key]).catch(() => {}); }
        if (event.key === "Home") { event.preventDefault(); replayGo(sessionId, 0).catch(() => {}); }
        if (event.key === "End") { event.preventDefault(); replayGo(sessionId, replayTotal).catch(() => {}); }
        if (event.key === " " && !event.target.closest("button")) { event.preventDefault(); replayToggle(sessionId); }
      });
      const fromHash = parseInt(location.hash.slice(1), 10);
      await replayGo(sessionId, Number.isFinite(fromHash) ? fromHash : replayTotal);
    },
  };
})();

// 嘴和 scorer page: pick cards, send HAND.json to /zuihe/api/score, show the explanation.
(function () {
  "use strict";
  const CARDS = JSON.parse(document.getElementById("zuihe-cards").textContent);
  const BY_CODE = Object.fromEntries(CARDS.map((c) => [c.code, c]));
  const ORDER = Object.fromEntries(CARDS.map((c, i) => [c.code, i]));
  const SVG = "http://www.w3.org/2000/svg";
  const NUMERALS = "一二三四五六七八九";
  const SUIT = { B: ["饼", "#1b4f9c"], T: ["条", "#1d6b33"], W: ["万", "#a31515"] };
  const HONOR = { ZH: ["中", "#c0141b"], FA: ["发", "#1d6b33"], BA: ["白", "#1b4f9c"] };
  const SMALL_YUN = ["ZH", "FA", "BA", "1B", "1T", "1W"];
  const SAMPLE = {
    hand: ["ZH", "ZH", "ZH", "7B", "7B", "7B", "8B", "8B", "8B", "9B", "9B", "9B", "2B", "3B", "4B", "5B", "6B",
           "2B", "3B", "4B", "5B", "6B", "BA", "4T", "5T", "6T", "7T"],
    melds: [{ type: "cha", cards: ["8W", "8W", "8W"] }], yun: [],
    flags: { mo: true, jian: "mian" },
  };
  const TEXT = {
    zh: { cards: "张", he: "和", zui: "嘴", group: "牌组", item: "项目", total: "合计", cha: "叉", guang: "光", chi: "吃",
          yun: "云幺", pending: "正在吃", none: "（空）", failed: "请求失败" },
    en: { cards: "cards", he: "和", zui: "嘴", group: "Group", item: "嘴 item", total: "Total", cha: "叉", guang: "光",
          chi: "吃", yun: "云幺", pending: "吃 in progress", none: "(empty)", failed: "request failed" },
  };

  let lang = document.documentElement.dataset.lang === "en" ? "en" : "zh";
  let hand = [];
  let melds = [];
  let yun = [];
  let pending = [];
  let lastAnswer = null;
  let lastError = null; // {zh, en}: the API's message in both languages, shown in the page's language

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svgText(parent, x, y, size, color, text, weight) {
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", x); t.setAttribute("y", y); t.setAttribute("font-size", size);
    t.setAttribute("fill", color); t.setAttribute("text-anchor", "middle");
    t.setAttribute("font-weight", weight || "bold");
    t.textContent = text;
    parent.appendChild(t);
  }

  // One card as inline SVG: numeral over suit for 饼/条/万, a big glyph for 中 发 白; 幺 cards get a red dot.
  function cardSvg(code) {
    const card = BY_CODE[code];
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 40 56");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", lang === "zh" ? card.zh : card.en);
    const rect = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({ x: 1, y: 1, width: 38, height: 54, rx: 4, fill: "#fbf7ea", stroke: "#b9ad8c", "stroke-width": 1.5 })) rect.setAttribute(k, v);
    svg.appendChild(rect);
    if (card.suit in SUIT) {
      const [glyph, color] = SUIT[card.suit];
      svgText(svg, 20, 24, 17, color, NUMERALS[card.rank - 1]);
      svgText(svg, 20, 46, 15, color, glyph, "normal");
    } else {
      const [glyph, color] = HONOR[code];
      if (code === "BA") {
        const frame = document.createElementNS(SVG, "rect");
        for (const [k, v] of Object.entries({ x: 8, y: 10, width: 24, height: 36, rx: 2, fill: "none", stroke: color, "stroke-width": 2 })) frame.setAttribute(k, v);
        svg.appendChild(frame);
      }
      svgText(svg, 20, 36, code === "BA" ? 15 : 22, color, glyph);
    }
    if (card.yao) {
      const dot = document.createElementNS(SVG, "circle");
      for (const [k, v] of Object.entries({ cx: 7, cy: 7, r: 3, fill: "#c0141b" })) dot.setAttribute(k, v);
      svg.appendChild(dot);
    }
    return svg;
  }

  function used(code) {
    let n = hand.filter((c) => c === code).length + pending.filter((c) => c === code).length;
    for (const m of melds) n += m.cards.filter((c) => c === code).length;
    for (const y of yun) n += y.filter((c) => c === code).length;
    return n;
  }

  function total() {
    return hand.length + melds.reduce((a, m) => a + m.cards.length, 0) + yun.reduce((a, y) => a + y.length, 0) + pending.length;
  }

  function target() {
    return document.querySelector("input[name=target]:checked").value;
  }

  function pick(code) {
    const left = 4 - used(code);
    const kind = target();
    if (kind === "hand" && left >= 1) hand.push(code);
    else if (kind === "cha" && left >= 3) melds.push({ type: "cha", cards: [code, code, code] });
    else if (kind === "guang" && left >= 4) melds.push({ type: "guang", cards: [code, code, code, code] });
    else if (kind === "chi" && left >= 1) pending.push(code);
    else return;
    changed();
  }

  function cardButton(code, onClick, extra) {
    const button = el("button", { type: "button", class: "zh-card", "data-code": code });
    button.appendChild(cardSvg(code));
    if (extra !== undefined) button.appendChild(el("span", { class: "left" }, extra));
    button.addEventListener("click", onClick);
    return button;
  }

  function renderPalette() {
    const palette = document.getElementById("palette");
    palette.replaceChildren();
    for (const card of CARDS) {
      const left = 4 - used(card.code);
      const button = cardButton(card.code, () => pick(card.code), String(left));
      button.setAttribute("aria-disabled", left <= 0 ? "true" : "false");
      button.title = (lang === "zh" ? card.zh : card.en) + ` (${card.code})`;
      palette.appendChild(button);
    }
  }

  function renderHand() {
    const t = TEXT[lang];
    const row = document.getElementById("hand");
    row.replaceChildren();
    hand.sort((a, b) => ORDER[a] - ORDER[b]);
    hand.forEach((code, i) => row.appendChild(cardButton(code, () => { hand.splice(i, 1); changed(); })));
    if (!hand.length) row.appendChild(el("span", { class: "zh-hint" }, t.none));
    const box = document.getElementById("melds");
    box.replaceChildren();
    const addGroup = (tag, cards, remove, cls) => {
      const group = el("div", { class: "zh-meld" + (cls ? " " + cls : "") });
      group.appendChild(el("span", { class: "tag" }, tag));
      cards.forEach((code) => group.appendChild(cardButton(code, remove)));
      box.appendChild(group);
    };
    melds.forEach((m, i) => addGroup(t[m.type], m.cards, () => { melds.splice(i, 1); changed(); }));
    yun.forEach((y, i) => addGroup(t.yun, y, () => { yun.splice(i, 1); changed(); }));
    if (pending.length) addGroup(t.pending, pending, () => { pending = []; changed(); }, "pending");
    document.getElementById("count").textContent = `${total()} ${t.cards}`;
    document.getElementById("chi-done").disabled = pending.length < 3;
  }

  function flags() {
    const get = (name) => document.querySelector(`[name=${name}]`);
    return {
      tianhe: get("tianhe").checked, dihe: get("dihe").checked, mo: get("mo").checked, za: get("za").checked,
      jian: get("jian").value || null,
    };
  }

  function handJson() {
    return { hand: hand.slice(), melds: melds.map((m) => ({ type: m.type, cards: m.cards.slice() })), yun: yun.map((y) => y.slice()), flags: flags() };
  }

  function changed() {
    renderPalette();
    renderHand();
  }

  function number(x) {
    return String(x);
  }

  function renderResult() {
    const out = document.getElementById("result");
    out.replaceChildren();
    if (!lastAnswer) return;
    const t = TEXT[lang];
    const ex = lastAnswer.explain[lang];
    out.appendChild(el("p", { class: "zh-title " + (lastAnswer.wins ? "win" : "lose") }, ex.title));
    if (ex.note) out.appendChild(el("p", { class: "zh-hint" }, ex.note));
    const groups = el("table", { class: "zh-table", id: "groups" });
    const head = el("tr");
    head.append(el("th", {}, t.group), el("th", {}, ""), el("th", { class: "num" }, t.he));
    groups.appendChild(el("thead")).appendChild(head);
    const body = groups.appendChild(el("tbody"));
    for (const g of ex.groups) {
      const row = el("tr");
      const cards = el("td");
      const strip = el("div", { class: "zh-group" });
      g.cards.forEach((code) => strip.appendChild(cardSvg(code)));
      cards.appendChild(strip);
      row.append(el("td", {}, g.name), cards, el("td", { class: "num" }, number(g.he)));
      body.appendChild(row);
    }
    const foot = el("tr");
    foot.append(el("td", {}, t.total), el("td"), el("td", { class: "num" }, number(lastAnswer.he)));
    groups.appendChild(el("tfoot")).appendChild(foot);
    out.appendChild(groups);
    if (ex.items.length) {
      const items = el("table", { class: "zh-table", id: "items" });
      const ihead = el("tr");
      ihead.append(el("th", {}, t.item), el("th", { class: "num" }, t.zui));
      items.appendChild(el("thead")).appendChild(ihead);
      const ibody = items.appendChild(el("tbody"));
      for (const item of ex.items) {
        const row = el("tr");
        row.append(el("td", {}, item.name), el("td", { class: "num" }, number(item.zui)));
        ibody.appendChild(row);
      }
      const ifoot = el("tr");
      ifoot.append(el("td", {}, t.total), el("td", { class: "num" }, number(lastAnswer.zui) + " " + t.zui));
      items.appendChild(el("tfoot")).appendChild(ifoot);
      out.appendChild(items);
    }
  }

  function renderError() {
    const error = document.getElementById("error");
    error.textContent = lastError ? lastError[lang] : "";
    error.hidden = !lastError;
  }

  async function scoreHand() {
    lastError = null;
    renderError();
    try {
      const response = await fetch("api/score", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(handJson()),
      });
      const answer = await response.json();
      if (!response.ok) {
        lastAnswer = null;
        const line = answer.error || String(response.status);
        lastError = answer.message && answer.message.zh ? answer.message : { zh: line, en: line };
      } else {
        lastAnswer = answer;
      }
    } catch (exc) {
      lastAnswer = null;
      lastError = { zh: `${TEXT.zh.failed}：${exc}`, en: `${TEXT.en.failed}: ${exc}` };
    }
    renderError();
    renderResult();
  }

  function setLanguage(next) {
    lang = next;
    document.documentElement.dataset.lang = lang;
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    for (const node of document.querySelectorAll("[data-zh]")) node.textContent = node.dataset[lang];
    document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=lax`;
    changed();
    renderResult();
    renderError();
  }

  document.getElementById("zuihe-lang").addEventListener("click", () => setLanguage(lang === "zh" ? "en" : "zh"));
  document.getElementById("chi-done").addEventListener("click", () => {
    melds.push({ type: "chi", cards: pending.slice() });
    pending = [];
    changed();
  });
  const layYun = (cards) => () => {
    if (cards.every((c) => used(c) < 4)) { yun.push(cards.slice()); changed(); }
  };
  document.getElementById("yun-small").addEventListener("click", layYun(SMALL_YUN));
  document.getElementById("yun-big").addEventListener("click", layYun(SMALL_YUN.concat(["9T"])));
  document.getElementById("score").addEventListener("click", scoreHand);
  document.getElementById("clear").addEventListener("click", () => {
    hand = []; melds = []; yun = []; pending = []; lastAnswer = null; lastError = null;
    changed(); renderResult(); renderError();
  });
  document.getElementById("sample").addEventListener("click", () => {
    hand = SAMPLE.hand.slice(); melds = SAMPLE.melds.map((m) => ({ type: m.type, cards: m.cards.slice() }));
    yun = []; pending = [];
    for (const [k, v] of Object.entries(SAMPLE.flags)) {
      const input = document.querySelector(`[name=${k}]`);
      if (input.type === "checkbox") input.checked = v; else input.value = v;
    }
    changed();
    scoreHand();
  });
  setLanguage(lang);
})();

/* The club's referee page (/club/referee): every proven violation at the tables, by table, deal (局),
 * trick and the player's name, in the page's language; with the organiser's token (?token=…) each
 * offers a clear choice: a scorer's typo (the entry fixed on that table's page, no penalty) or a
 * player's breach (a penalty ruled, the points typed or the rules' own, recorded in the table's record
 * by its machine). The rulings made follow. */
import { api, esc, fetchJson, language, onLanguage, startPage, t, writeToken } from "./client.js";

let data = null;

function where(v) {
  return t("referee.where", { table: v.table, deal: v.deal, trick: v.trick == null ? "—" : v.trick + 1 });
}

function ruleName(rule) {
  const key = "rule." + rule;
  const words = t(key);
  return words === key ? rule : words;
}

function violationText(v) {
  const words = v.words && v.words[language()];
  if (words) return words;
  return (v.player ? v.player + ": " : "") + ruleName(v.rule);
}

function choiceHtml(v, i) {
  if (!writeToken) return "";
  const fix = "/club/table/" + encodeURIComponent(v.table);
  return '<fieldset class="referee-choice"><a class="choice typo" href="' + esc(fix) + '">' + esc(t("referee.typo")) + "</a>" +
    '<span class="choice breach">' + esc(t("referee.breach")) + ' <input class="ruling-points" data-i="' + i +
    '" inputmode="numeric" aria-label="' + esc(t("referee.points")) + '" placeholder="' + esc(t("referee.points")) + '">' +
    ' <button type="button" class="rule" data-i="' + i + '">' + esc(t("referee.rule")) + "</button></span></fieldset>";
}

function violationHtml(v, i) {
  return '<li class="violation" data-table="' + esc(v.table) + '"><a href="/club/table/' + encodeURIComponent(v.table) + '">' +
    esc(where(v)) + '</a> · <span class="player">' + esc(v.player || "") + '</span> · <span class="rule-name">' +
    esc(ruleName(v.rule)) + '</span><div class="detail">' + esc(violationText(v)) + "</div>" + choiceHtml(v, i) + "</li>";
}

function rulingHtml(r) {
  const penalty = r.levels ? t("referee.ruled.levels", { n: r.levels }) : t("referee.ruled.points", { n: r.points || 0 });
  return '<li class="ruling">' + esc(t("referee.ruling", { table: r.table, deal: r.deal, player: r.player || "—", rule: ruleName(r.rule) })) +
    " · " + esc(penalty) + "</li>";
}

function render() {
  if (!data) return;
  const list = document.getElementById("violations");
  list.innerHTML = data.violations.map(violationHtml).join("") || '<li class="muted">' + esc(t("referee.none")) + "</li>";
  list.querySelectorAll("button.rule").forEach((button) => {
    button.onclick = () => rule(data.violations[button.dataset.i], list.querySelector('input[data-i="' + button.dataset.i + '"]').value.trim());
  });
  document.getElementById("rulings").innerHTML = data.rulings.map(rulingHtml).join("") || '<li class="muted">—</li>';
}

async function rule(v, text) {
  const points = parseInt(text, 10);
  await api("/club/api/rulings", { table: v.table, deal: v.deal - 1, violation: v.violation,
    points: Number.isNaN(points) ? null : points }).catch(() => {});
}

let asked = 0; // the latest read asked: an earlier one answering after it is not drawn over it
async function reload() {
  const mine = ++asked;
  const answer = await fetchJson("/club/api/referee");
  if (mine !== asked || !answer) return;
  data = answer;
  render();
}

function start() {
  startPage("static");
  onLanguage(render);
  reload();
  const events = new EventSource("/club/api/events");
  events.onmessage = () => reload();
  window.Tuolaji.source = events; // the page's one stream (for the tests)
}

start();

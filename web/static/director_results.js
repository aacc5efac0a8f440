/* The director's console's results (club/director.py, /club/director/api/results): each round's result at
 * each table, the figures that count with the record's before any fix and every fix with its reason and
 * time; a result fixed with its reason (required: the club refuses one without, said under the form). */
import { api, esc, language, setText, t } from "./client.js";

const API = "/club/director/api";
const FIGURES = ["levels_gained", "level_diff", "deals_won", "points"];
let results = [];

function clock(iso) {
  return new Date(iso).toLocaleTimeString(language() === "zh" ? "zh-CN" : "en-GB", { hour: "2-digit", minute: "2-digit" });
}

function figuresText(figures) { return t("director.figures", figures); }

function sideHtml(row, side) {
  return '<span class="pair">' + esc(row[side]) + '</span><br><span class="figures">' + esc(figuresText(row.figures[side])) + "</span>";
}

function fixesHtml(row) {
  if (!row.fixes.length) return "";
  return '<ol class="fixes">' + row.fixes.map((fix) => '<li class="fix">' + esc(t("director.fix.entry", { time: clock(fix.at), reason: fix.reason })) +
    "<br>" + esc(t("director.fix.before")) + ": " + esc(t("director.ns") + " " + figuresText(fix.before.ns) + " · " + t("director.ew") +
    " " + figuresText(fix.before.ew)) + "<br>" + esc(t("director.fix.after")) + ": " + esc(t("director.ns") + " " +
    figuresText(fix.after.ns) + " · " + t("director.ew") + " " + figuresText(fix.after.ew)) + "</li>").join("") + "</ol>";
}

function key(row) { return JSON.stringify([row.round, row.table]); }

export function renderResults() {
  document.getElementById("result-rows").innerHTML = results.length ? results.map((row) => '<tr data-round="' + row.round +
    '" data-table="' + esc(row.table) + '"><td>' + row.round + '</td><th scope="row">' + esc(row.table) +
    (row.fixes.length ? ' <span class="fixed-mark">' + esc(t("director.fixed")) + "</span>" : "") + '</th><td class="ns">' +
    sideHtml(row, "ns") + '</td><td class="ew">' + sideHtml(row, "ew") + fixesHtml(row) + "</td></tr>").join("")
    : '<tr><td colspan="4">' + esc(t("director.results.none")) + "</td></tr>";
  const select = document.getElementById("fix-row");
  const chosen = select.value;
  select.innerHTML = results.map((row) => '<option value="' + esc(key(row)) + '">' +
    esc(t("director.fix.choose", { round: row.round, table: row.table })) + "</option>").join("");
  if (results.some((row) => key(row) === chosen)) select.value = chosen;
  else if (results.length) { select.value = key(results[results.length - 1]); fillFigures(); }
}

/* The chosen row's figures that count now, to change. */
function fillFigures() {
  const row = results.find((r) => key(r) === document.getElementById("fix-row").value);
  if (!row) return;
  for (const side of ["ns", "ew"]) {
    for (const figure of FIGURES) document.getElementById("fix-" + side + "-" + figure).value = row.figures[side][figure];
  }
}

export async function loadResults() {
  results = (await api(API + "/results")).results;
  renderResults();
}

async function fixResult(event) {
  event.preventDefault();
  const row = results.find((r) => key(r) === document.getElementById("fix-row").value);
  if (!row) return;
  const body = { round: row.round, table: row.table, reason: document.getElementById("fix-reason").value, ns: {}, ew: {} };
  document.querySelectorAll("#fix-form .fix-side input").forEach((input) => {
    body[input.dataset.side][input.dataset.figure] = Number(input.value);
  });
  try {
    await api(API + "/results/fix", body, "fix-error");
  } catch (e) {
    return; // what was typed stays, the refusal under it
  }
  document.getElementById("fix-reason").value = "";
  setText("fix-done", t("director.fix.done", { round: row.round, table: row.table }));
  await loadResults();
}

export function startResults() {
  document.getElementById("fix-row").addEventListener("change", fillFigures);
  document.getElementById("fix-form").addEventListener("submit", fixResult);
}

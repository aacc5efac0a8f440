/* The club's standings (/club/standings?rule=…): the pairs ranked as /club/api/standings ranks them,
 * the column heads in the page's language; the page follows the club's news. */
import { esc, fetchJson, startPage } from "./client.js";

const RULE = document.getElementById("standings-rules").dataset.rule;

function rowHtml(r) {
  return "<tr><td>" + esc(r.rank) + '</td><td class="pair">' + esc(r.pair) + "</td><td>" + esc(r.rounds) + "</td><td>" +
    esc(r.levels_gained) + "</td><td>" + esc(r.level_diff) + "</td><td>" + esc(r.deals_won) + "</td><td>" + esc(r.points) + "</td></tr>";
}

let asked = 0; // the latest read asked: an earlier one answering after it is not drawn over it
async function reload() {
  const mine = ++asked;
  const data = await fetchJson("/club/api/standings?rule=" + encodeURIComponent(RULE));
  if (mine !== asked || !data) return;
  document.getElementById("standings").innerHTML = data.standings.map(rowHtml).join("");
}

function start() {
  startPage("static");
  reload();
  const events = new EventSource("/club/api/events");
  events.onmessage = () => reload();
  window.Tuolaji.source = events; // the page's one stream (for the tests)
}

start();

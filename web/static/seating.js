/* The club's seat cards (/club/cards: one a table, to print) and the projector's slide (/club/slide: the
 * round's seating in big type), both from /club/api/seating (the round under way, else the latest; the
 * cards' ?round=N that one), in the page's language; both follow the club's news (a round started,
 * ended, a pair moved); the slide shows the round clock of a round by time (roundclock.js). */
import { esc, fetchJson, onLanguage, startPage, t } from "./client.js";
import { redrawClocks, setClock } from "./roundclock.js";

const SLIDE = document.body.classList.contains("page-slide");
let data = null;

function sideHtml(side, seat) {
  return "<dt>" + esc(t("director." + side)) + '</dt><dd class="' + side + '"><span class="pair">' + esc(seat.pair) +
    '</span> <span class="players">' + esc(seat.players.join(" ")) + "</span></dd>";
}

function cardHtml(seat) {
  return '<article class="seat-card" data-table="' + esc(seat.table) + '"><h2>' + esc(seat.table) + '</h2><p class="round">' +
    esc(t("seats.round", { round: data.round })) + "</p><dl>" + sideHtml("ns", seat.ns) + sideHtml("ew", seat.ew) + "</dl></article>";
}

function slideHtml(seat) {
  return '<section class="slide-table" data-table="' + esc(seat.table) + '"><h2>' + esc(seat.table) + '</h2><p class="ns"><span class="side">' +
    esc(t("director.ns")) + "</span>" + esc(seat.ns.players.join(" ")) + '</p><p class="ew"><span class="side">' +
    esc(t("director.ew")) + "</span>" + esc(seat.ew.players.join(" ")) + "</p></section>";
}

function render() {
  if (!data) return;
  const none = !data.round || !data.seating.length || (SLIDE && !data.under_way);
  document.getElementById("seating-none").hidden = !none;
  const seats = none ? [] : data.seating;
  if (SLIDE) {
    document.getElementById("slide-title").textContent = none ? t("seats.slide.title") : t("seats.slide.round", { round: data.round });
    document.getElementById("slide").innerHTML = seats.map(slideHtml).join("");
  } else {
    document.getElementById("seat-cards").innerHTML = seats.map(cardHtml).join("");
  }
  document.body.dataset.round = data.round || "";
}

let asked = 0; // the latest read asked: an earlier one answering after it is not drawn over it
async function reload() {
  const mine = ++asked;
  const round = new URLSearchParams(location.search).get("round");
  const answer = await fetchJson("/club/api/seating" + (round && !SLIDE ? "?round=" + encodeURIComponent(round) : ""));
  if (mine !== asked || !answer) return;
  data = answer;
  render();
  if (SLIDE) setClock("slide-clock", data.under_way ? data.seconds_left : null);
}

let pending = null; // the club's news gathered: one read for a burst
function later() {
  if (!pending) pending = setTimeout(() => { pending = null; reload().catch(() => {}); }, 300);
}

function start() {
  startPage("static");
  onLanguage(() => { render(); redrawClocks(); });
  if (SLIDE) {
    document.getElementById("fullscreen").addEventListener("click", () => {
      if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen().catch(() => {});
    });
  } else {
    document.getElementById("print").addEventListener("click", () => window.print());
  }
  reload().catch(() => {});
  const events = new EventSource("/club/api/events");
  events.onmessage = later;
  window.Tuolaji.source = events; // the page's one stream (for the tests)
}

start();

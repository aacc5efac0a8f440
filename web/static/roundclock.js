/* The round clock (the director's console and the projector's slide): the minutes left in a round by
 * time, counted down each second from the server's figure (seconds_left, read with the round), so a
 * machine whose own clock is wrong still shows the club's time; "time is up" at 0 (the server ends the
 * round itself then). */
import { t } from "./client.js";

const clocks = new Map(); // element id -> { left: seconds at read, at: performance.now() then }
let ticking = false;

function text(left) {
  if (left <= 0) return t("clock.up");
  return left < 60 ? t("clock.seconds", { seconds: left }) : t("clock.minutes", { minutes: Math.ceil(left / 60) });
}

function draw() {
  for (const [id, clock] of clocks) {
    const el = document.getElementById(id);
    if (!el) continue;
    const left = Math.max(0, clock.left - Math.floor((performance.now() - clock.at) / 1000));
    el.textContent = text(left);
    el.dataset.left = String(left);
    el.classList.toggle("over", left <= 0);
  }
}

function tick() {
  draw();
  if (clocks.size) setTimeout(tick, 1000); else ticking = false;
}

/* Show the clock in element ``id``: ``secondsLeft`` as the server read it (null: no clock, hidden). */
export function setClock(id, secondsLeft) {
  const el = document.getElementById(id);
  if (secondsLeft == null) {
    clocks.delete(id);
    if (el) el.hidden = true;
    return;
  }
  clocks.set(id, { left: secondsLeft, at: performance.now() });
  if (el) el.hidden = false;
  draw();
  if (!ticking) { ticking = true; setTimeout(tick, 1000); }
}

/* Redraw in the page's language. */
export function redrawClocks() { draw(); }

/* The director's console's pair moved in the round under way (club/director.py, /club/director/api/rounds/move):
 * a pair to another table's side, the pair there taking its seat; the room's rows and the tables' pages
 * follow the club's news. A refusal is said under the form. */
import { api, esc, setText, t } from "./client.js";

const API = "/club/director/api";
let reloadState = async () => {};

function keepChoice(select, html) {
  const chosen = select.value;
  select.innerHTML = html;
  if ([...select.options].some((option) => option.value === chosen)) select.value = chosen;
}

/* The form while a round is under way: every pair, the tables seated in it. */
export function renderMove(data) {
  const form = document.getElementById("move-form");
  form.hidden = !data.round;
  if (!data.round) return;
  keepChoice(document.getElementById("move-pair"), data.pairs.map((p) => '<option value="' + esc(p.pair) + '">' +
    esc(p.pair + " · " + p.players.join(" ")) + "</option>").join(""));
  keepChoice(document.getElementById("move-table"), data.seating.map((s) => '<option value="' + esc(s.table) + '">' +
    esc(s.table) + "</option>").join(""));
}

async function movePair(event) {
  event.preventDefault();
  const body = { pair: document.getElementById("move-pair").value, table: document.getElementById("move-table").value,
    side: document.getElementById("move-side").value };
  let answer;
  try {
    answer = await api(API + "/rounds/move", body, "move-error");
  } catch (e) {
    return; // said under the form
  }
  setText("move-done", t("director.move.done", { pair: answer.pair, table: answer.table,
    side: t("director." + answer.side), swapped: answer.swapped }));
  await reloadState();
}

export function startMove(reload) {
  reloadState = reload;
  document.getElementById("move-form").addEventListener("submit", movePair);
}

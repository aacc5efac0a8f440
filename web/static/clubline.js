/* The club's line on a table's page (tuolaji serve --club): a change the club refused to store waits
 * there, with the club's reason, until it is mended: skipped, or the sessions' current records sent in
 * its place (the buttons, with the table's token). At the club, the table's page says the same. A push
 * the club refuses otherwise (a wrong token) is said too: the changes wait until it is put right.
 * While a round is under way, the seating line says where the table's players sit (第 N 轮 · 南北 … 对 东西 …);
 * on the table's own machine, with its token, one button starts a game with those players in their seats
 * (the server's seat order: data.club.seating.seats). */
import { api, onRender, page, t, writeToken } from "./client.js";

const anchor = document.getElementById("source-line");

function profileOf(record) {
  if (!record) return "standard-2deck";
  return typeof record.rules === "string" ? record.rules : record.rules.profile;
}

/* A new session with the round's players in their seats, everyone at 2 (the page follows the table's events). */
async function seatPlayers(seating) {
  const record = page.data && page.data.state ? page.data.state.record : null;
  await api("/api/setup", { new: true, profile: profileOf(record), players: seating.seats,
    levels: seating.seats.map(() => "2"), trump: "NT", dealer: 0, name: t("club.seat_name", { round: seating.round }) });
}

/* A hidden line (its text in a span) put right after ``anchor``: the club's lines under the table's title. */
function lineAfter(anchor, id, className, role) {
  const line = document.createElement("div");
  line.id = id;
  line.className = className;
  line.setAttribute("role", role);
  line.hidden = true;
  anchor.after(line);
  const text = document.createElement("span");
  line.appendChild(text);
  return [line, text];
}

if (anchor) {
  const [seatLine, seatText] = lineAfter(anchor, "seat-line", "club-line seat-line", "status");
  const seatButton = document.createElement("button");
  seatButton.type = "button";
  seatButton.id = "club-seat";
  seatButton.addEventListener("click", () => {
    const seating = page.data && page.data.club && page.data.club.seating;
    if (seating) seatPlayers(seating).catch(() => {});
  });
  seatLine.appendChild(seatButton);
  onRender(({ data }) => {
    const seating = data && data.club && data.club.seating;
    seatLine.hidden = !seating;
    if (!seating) return;
    seatText.textContent = t("club.seating", { round: seating.round, ns: seating.ns.players.join(" "), ew: seating.ew.players.join(" ") });
    const record = data.state ? data.state.record : null;
    const seated = Boolean(record) && JSON.stringify(record.players) === JSON.stringify(seating.seats);
    // the players are set on the table's own machine (its club line has a state), not on its page at the club
    const here = Boolean(writeToken) && "state" in data.club;
    seatButton.hidden = !here || seated;
    seatButton.textContent = t("club.seat");
    if (here && seated) seatText.textContent += " · " + t("club.seated");
  });

  const [line, text] = lineAfter(anchor, "club-line", "club-line", "alert");
  const buttons = {};
  for (const action of ["resend", "skip"]) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "club-" + action;
    button.addEventListener("click", () => { api("/api/club/" + action, {}).catch(() => {}); });
    line.appendChild(button);
    buttons[action] = button;
  }
  onRender(({ data }) => {
    const club = data && data.club;
    const held = club && (club.held || club.refused);
    const refused = club && club.state === "refused" && club.error; // a wrong token, a name the club does not answer to
    line.hidden = !held && !refused;
    if (!held) {
      if (refused) text.textContent = t("club.refused", { reason: club.error });
      Object.values(buttons).forEach((button) => { button.hidden = true; });
      return;
    }
    text.textContent = t("club.held", { n: held.n, reason: held.reason });
    for (const [action, button] of Object.entries(buttons)) {
      button.textContent = t("club." + action);
      button.hidden = !(club.held && writeToken);
    }
  });
}

/* The club's line on a table's page (tuolaji serve --club): a change the club refused to store waits
 * there, with the club's reason, until it is mended: skipped, or the sessions' current records sent in
 * its place (the buttons, with the table's token). At the club, the table's page says the same. A push
 * the club refuses otherwise (a wrong token) is said too: the changes wait until it is put right. */
import { api, onRender, t, writeToken } from "./client.js";

const anchor = document.getElementById("source-line");

if (anchor) {
  const line = document.createElement("div");
  line.id = "club-line";
  line.className = "club-line";
  line.setAttribute("role", "alert");
  line.hidden = true;
  anchor.after(line);
  const text = document.createElement("span");
  line.appendChild(text);
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

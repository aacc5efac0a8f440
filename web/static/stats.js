/* The players' records (战绩) and the leaderboard (排行榜), /stats: every figure is the server's
 * (/api/stats, web/stats.py over the stored sessions' audits), in the server's order. A player is
 * renamed (or merged into another by giving that one's name) through /api/stats/rename. */
import { api, esc, fieldError, language, onLanguage, page, publish, setText, startPage, t, writeToken } from "./client.js";

let renaming = null; // the name of the player the rename dialog is open for

function rankingHtml(players) {
  if (!players.length) return '<li class="none">' + esc(t("stats.none")) + "</li>";
  return players.slice(0, 10).map((p) => '<li class="rank-row" data-key="' + esc(p.key) + '"><span class="rank">' + p.rank +
    '</span> <strong class="rank-name">' + esc(p.name) + "</strong> <span class=\"rank-figures\">" +
    esc(page.data.ranking.map((key) => t("stats." + key) + " " + p[key]).join(" · ")) + "</span></li>").join("");
}

function rowsHtml(players, keys) {
  return players.map((p) => {
    const others = p.names.filter((name) => name !== p.name);
    return '<tr data-key="' + esc(p.key) + '"><td>' + p.rank + '</td><th scope="row"><span class="player-name">' + esc(p.name) + "</span>" +
      (others.length ? ' <small class="also">' + esc(t("stats.also", { names: others.join(language() === "zh" ? "、" : ", ") })) + "</small>" : "") + "</th>" +
      keys.map((key) => '<td data-stat="' + key + '">' + p[key] + "</td>").join("") +
      // the server's figures: the share of deals his side won, and whom he played with most (three at most)
      '<td data-stat="deal_rate">' + (p.deal_rate == null ? "–" : p.deal_rate + "%") + "</td>" +
      '<td data-stat="partners" class="partners">' + esc(p.partners.slice(0, 3).map((partner) =>
        t("stats.partner", partner)).join(language() === "zh" ? "；" : "; ")) + "</td>" +
      '<td>' + (writeToken ? '<button type="button" class="rename-btn" data-name="' + esc(p.name) + '">' + esc(t("stats.rename")) +
      "</button>" : "") + "</td></tr>";
  }).join("");
}

function fillEvenings(data) {
  const select = document.getElementById("stats-evening");
  const options = ['<option value="">' + esc(t("stats.evening_all")) + "</option>"].concat(
    data.evenings.map((day) => '<option value="' + esc(day) + '">' + esc(day) + "</option>"));
  select.innerHTML = options.join("");
  select.value = data.evening || "";
}

function render(cause) {
  const data = page.data;
  fillEvenings(data);
  document.getElementById("ranking").innerHTML = rankingHtml(data.players);
  document.getElementById("stats-rows").innerHTML = rowsHtml(data.players, data.keys);
  setText("stats-count", t("stats.sessions", { n: data.sessions }) + (data.skipped ? t("stats.skipped", { n: data.skipped }) : ""));
  if (renaming) setText("rename-title", t("stats.rename_title", { name: renaming }));
  publish(cause);
}

async function reload() {
  const evening = document.getElementById("stats-evening").value;
  page.data = await api("/api/stats" + (evening ? "?evening=" + encodeURIComponent(evening) : ""));
  render("state");
}

function openRename(name) {
  renaming = name;
  setText("rename-title", t("stats.rename_title", { name: name }));
  const input = document.getElementById("rename-to");
  input.value = name;
  fieldError("rename-error", null);
  document.getElementById("rename").show(); // not modal: the language toggle stays at hand
  input.select();
}

async function saveRename(event) {
  event.preventDefault();
  const to = document.getElementById("rename-to").value;
  try {
    page.data = await api("/api/stats/rename", { name: renaming, to: to }, "rename-error");
  } catch (e) {
    return; // the refusal is shown under the field
  }
  renaming = null;
  document.getElementById("rename").close();
  if (document.getElementById("stats-evening").value) return reload(); // the evening chosen stays
  render("state");
}

function start() {
  startPage("stats");
  document.getElementById("stats-rows").addEventListener("click", (event) => {
    const button = event.target.closest(".rename-btn");
    if (button) openRename(button.dataset.name);
  });
  document.getElementById("rename-form").addEventListener("submit", saveRename);
  document.getElementById("stats-evening").addEventListener("change", () => reload().catch(() => {}));
  const cancel = () => { renaming = null; document.getElementById("rename").close(); };
  document.getElementById("rename-cancel").addEventListener("click", cancel);
  document.getElementById("rename").addEventListener("keydown", (event) => { if (event.key === "Escape") cancel(); });
  onLanguage(() => { if (page.data) render("language"); });
  reload().catch(() => {});
}

start();

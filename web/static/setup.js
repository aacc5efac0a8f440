/* The new game's set-up form (牌桌设置): the profile by deck count, the player count it allows, the
 * players with their levels, the dealer, the 找朋友 calls and the house rules, with what the rules then
 * mean in words. Per profile and player count the server says the sides (partners share a level) and
 * how many friends the dealer calls (PROFILES[profile].setup[count]). */
import { LEVELS, PROFILES, api, esc, language, page, profileLabel, t, words } from "./client.js";
import { friendRowHtml } from "./entry.js";

let setupFilled = false;
let setUpHere = false; // this page just started the game: its set-up stays closed
let aboutAsked = 0;

const DEFAULT_NAMES = { zh: ["东", "南", "西", "北", "甲", "乙", "丙"], en: ["East", "South", "West", "North", "P5", "P6", "P7"] };

function form() { return document.getElementById("setup-form"); }

/* The set-up data of the chosen profile and player count: {sides, friends}. */
function chosen() {
  const f = form();
  const profile = PROFILES[f.profile.value];
  const setup = profile && profile.setup ? profile.setup[f.count.value] : null;
  return { decks: profile ? profile.decks : 0, sides: setup ? setup.sides : [], friends: setup ? setup.friends : 0 };
}

/* The form filled from the session once (again after resetSetup: a new session); a form in use is left alone. */
export function fillSetup() {
  const f = form();
  if (!f || setupFilled) return;
  const data = page.data;
  const record = data && data.state ? data.state.record : null;
  // a table nobody has played at yet (e.g. the camera's default) opens its set-up
  const feeding = data && data.feed && data.feed.running &&
    (data.feed.kind === "record" || (data.session && data.session.source === "demo"));
  if (record && !feeding && !setUpHere && !record.deals.some((deal) => (deal.tricks || []).length)) {
    document.getElementById("setup").open = true;
  }
  f.name.value = data && data.session ? data.session.name : ""; // the game's name, as the header says it
  const profile = record ? (typeof record.rules === "string" ? record.rules : record.rules.profile) : "standard-2deck";
  f.decks.value = String(PROFILES[profile] ? PROFILES[profile].decks : 2);
  fillProfiles(profile);
  fillCounts(record ? record.players.length : null);
  fillPlayers(record);
  fillProfileAbout().catch(() => {});
  if (record && record.deals.length) {
    const deal = record.deals[record.deals.length - 1];
    f.trump.value = deal.trump;
    f.dealer.value = String(deal.dealer);
  }
  setupFilled = true;
}

export function resetSetup() { setupFilled = false; }

function fillProfiles(selected) {
  const f = form();
  const decks = Number(f.decks.value);
  const names = Object.keys(PROFILES).filter((p) => PROFILES[p].decks === decks);
  f.profile.innerHTML = names.map((p) => '<option value="' + p + '">' + esc(profileLabel(p)) + "</option>").join("");
  if (selected && names.includes(selected)) f.profile.value = selected;
}

function fillCounts(count) {
  const f = form();
  const allowed = PROFILES[f.profile.value] ? PROFILES[f.profile.value].players : [4];
  f.count.innerHTML = allowed.map((n) => "<option>" + n + "</option>").join("");
  if (count && allowed.includes(count)) f.count.value = String(count);
}

function fillPlayers(record) {
  const count = Number(form().count.value);
  const old = Array.from(document.querySelectorAll("#player-fields input[name=player]")).map((i) => i.value);
  const levels = record && record.start_levels ? record.start_levels : null;
  let html = "";
  for (let seat = 0; seat < count; seat += 1) {
    const name = record && record.players.length === count ? record.players[seat] : old[seat] || DEFAULT_NAMES[language()][seat];
    const level = levels && levels.length === count ? levels[seat] : "2";
    html += '<div class="player-row"><label><span data-seat-label="' + (seat + 1) + '">' + esc(t("setup.player", { n: seat + 1 })) +
      '</span> <input name="player" value="' + esc(name) + '" required autocomplete="off"></label> <label><span class="visually-hidden" ' +
      'data-i18n="setup.level">' + esc(t("setup.level")) + '</span><select name="level" data-seat="' + seat + '">' +
      LEVELS.map((l) => "<option" + (l === level ? " selected" : "") + ">" + l + "</option>").join("") + "</select></label></div>";
  }
  document.getElementById("player-fields").innerHTML = html;
  fillSetupDealers();
  const { decks, friends } = chosen();
  const box = document.getElementById("friend-fields");
  box.hidden = friends === 0;
  let fields = '<legend data-i18n="deal.friends">' + esc(t("deal.friends")) + "</legend>";
  for (let i = 0; i < friends; i += 1) fields += friendRowHtml({ card: i ? "AH" : "AS", nth: 2 }, decks, true);
  box.innerHTML = fields;
}

/* The set-up's dealer choices: the players' names as typed, with their seats counted from 1. */
/* The dealer menu's words (the players' names as typed), and the profiles' names in the page's language. */
export function fillSetupDealers() {
  const f = form();
  if (!f) return;
  f.profile.querySelectorAll("option").forEach((o) => { o.textContent = profileLabel(o.value); });
  const keep = f.dealer.value;
  const names = Array.from(f.querySelectorAll("input[name=player]")).map((i) => i.value.trim());
  f.dealer.innerHTML = names.map((name, seat) => '<option value="' + seat + '">' +
    esc(name ? t("setup.player_named", { n: seat + 1, name: name }) : t("setup.player", { n: seat + 1 })) + "</option>").join("");
  if (keep && Number(keep) < names.length) f.dealer.value = keep;
}

function houseOptions() {
  const options = {};
  document.querySelectorAll("#setup-form select[name=house]").forEach((select) => {
    if (select.value) options[select.dataset.option] = select.value;
  });
  return options;
}

/* What the chosen profile (with the house rules chosen) means, in words: the server reads the rules core's options. */
export async function fillProfileAbout() {
  const f = form();
  const list = document.getElementById("profile-about");
  if (!f || !list) return;
  const house = houseOptions();
  const profile = f.profile.value;
  const count = f.count.value;
  const known = PROFILES[profile] && PROFILES[profile].about ? PROFILES[profile].about[count] : null;
  let about = !Object.keys(house).length ? known : null;
  if (!about) {
    const asked = ++aboutAsked;
    const query = "?profile=" + encodeURIComponent(profile) + "&players=" + encodeURIComponent(count) +
      "&options=" + encodeURIComponent(JSON.stringify(house));
    about = await api("/api/rules" + query);
    if (asked !== aboutAsked) return;
  }
  list.innerHTML = about ? about.facts.map((fact) => "<li>" + esc(words(fact)) + "</li>").join("") : "";
  list.dataset.words = JSON.stringify(about);
}

function setupBody() {
  const f = form();
  const names = Array.from(f.querySelectorAll("input[name=player]")).map((i) => i.value.trim());
  const levels = Array.from(f.querySelectorAll("select[name=level]")).map((s) => s.value);
  const body = { name: f.name.value.trim(), profile: f.profile.value, players: names, levels: levels,
    trump: f.trump.value, dealer: Number(f.dealer.value) };
  const cards = Array.from(document.querySelectorAll("#friend-fields select[name=friend_card]")).map((s) => s.value);
  const nths = Array.from(document.querySelectorAll("#friend-fields select[name=friend_nth]")).map((s) => Number(s.value));
  if (cards.length) body.friends = cards.map((c, i) => ({ card: c, nth: nths[i] }));
  const house = houseOptions();
  if (Object.keys(house).length) body.options = house;
  return body;
}

/* The house rules of a record's rules that the set-up form offers (再来一局 keeps them). */
function houseOf(rules) {
  const options = {};
  if (typeof rules !== "object") return options;
  document.querySelectorAll("#setup-form select[name=house]").forEach((select) => {
    if (select.dataset.option in rules) options[select.dataset.option] = rules[select.dataset.option];
  });
  return options;
}

/* 再来一局: a new session with the same players and rules (the house rules too), everyone back at 2 (the caller
 * reloads). A house rule the form does not offer (an imported record's) is left to the profile. */
export async function playAgain() {
  const data = page.data;
  const record = data.state.record;
  const profile = typeof record.rules === "string" ? record.rules : record.rules.profile;
  const body = { new: true, profile: profile, players: record.players, levels: record.players.map(() => "2"),
    trump: "NT", dealer: 0, name: (data.session ? data.session.name : "") + " · " + t("action.play_again") };
  const house = houseOf(record.rules);
  if (Object.keys(house).length) await api("/api/setup", { ...body, options: house }).catch(() => api("/api/setup", body));
  else await api("/api/setup", body);
  setupFilled = false;
}

export function bindSetup(reload) {
  const f = form();
  f.decks.addEventListener("change", () => { fillProfiles(null); fillCounts(null); fillPlayers(null); });
  f.profile.addEventListener("change", () => { fillCounts(null); fillPlayers(null); });
  f.count.addEventListener("change", () => fillPlayers(null));
  f.addEventListener("change", (event) => {
    if (["decks", "profile", "count", "house"].includes(event.target.name)) fillProfileAbout().catch(() => {});
  });
  f.addEventListener("input", (event) => { if (event.target.name === "player") fillSetupDealers(); });
  f.addEventListener("change", (event) => {
    // partners share a level: changing one seat's level changes its side's (the server's sides)
    if (event.target.name !== "level") return;
    const seat = Number(event.target.dataset.seat);
    const side = chosen().sides.find((seats) => seats.includes(seat)) || [];
    side.forEach((other) => { f.querySelector('select[name=level][data-seat="' + other + '"]').value = event.target.value; });
  });
  f.addEventListener("submit", (event) => {
    event.preventDefault();
    // a session without plays yet (e.g. the camera's default table) is set up in place
    api("/api/setup", setupBody()).then(() => {
      setupFilled = false; setUpHere = true; document.getElementById("setup").open = false; return reload();
    }).catch(() => {});
  });
}

/* A play the camera did not see (the record's missing, docs/RECORD.md 没看到的出牌): the 待确认 panel
 * says whose play in which trick, and a person enters its cards (typed, or tapped from the cards)
 * through /api/enter-play. The dialog lives outside the panel, so a reload never loses what is typed. */
import { api, cardGridHtml, esc, fieldError, playerName, showState, t } from "./client.js";

let entering = null; // the missing play the dialog is open for: { deal, trick, seat, size }

/* The 待确认 panel's line for one missing play (LiveGame.pending: { deal, trick, seat, missing, size }). */
export function missingItemHtml(p) {
  return '<li class="pending-item missing-item" data-deal="' + p.deal + '" data-trick="' + p.trick + '" data-seat="' + p.seat +
    '" data-size="' + (p.size == null ? "" : p.size) + '"><span>' +
    esc(t("pending.missing", { trick: p.trick + 1, name: playerName(p.seat) })) +
    '</span> <button type="button" class="enter-missing">' + esc(t("missing.enter")) + "</button></li>";
}

function dialog() {
  let box = document.getElementById("missing-dialog");
  if (box) return box;
  box = document.createElement("dialog");
  box.id = "missing-dialog";
  box.className = "picker";
  box.setAttribute("aria-labelledby", "missing-title");
  document.body.appendChild(box);
  return box;
}

function open(where) {
  entering = where;
  const box = dialog();
  box.innerHTML = '<form method="dialog" id="missing-form"><h2 id="missing-title">' +
    esc(t("pending.missing", { trick: where.trick + 1, name: playerName(where.seat) })) + "</h2>" +
    (where.size ? '<p class="hint" id="missing-size">' + esc(t("missing.size", { n: where.size })) + "</p>" : "") +
    '<label class="picker-type"><span>' + esc(t("missing.cards")) + '</span> <input id="missing-cards" name="cards" ' +
    'autocomplete="off" aria-describedby="missing-error"></label>' +
    '<p id="missing-error" class="field-error" role="alert" hidden></p>' +
    '<div id="missing-grid" class="picker-grid">' + cardGridHtml("pick-missing") + "</div>" +
    '<div class="buttons"><button type="button" id="missing-save">' + esc(t("missing.save")) + "</button> " +
    '<button type="button" id="missing-clear">' + esc(t("missing.clear")) + "</button> " +
    '<button type="submit" value="cancel">' + esc(t("missing.cancel")) + "</button></div></form>";
  fieldError("missing-error", null);
  box.showModal();
  document.getElementById("missing-cards").focus();
}

async function save() {
  const where = entering;
  const input = document.getElementById("missing-cards");
  if (!where || !input.value.trim()) { input.focus(); return; }
  let answer;
  try {
    answer = await api("/api/enter-play", { deal: where.deal, trick: where.trick, seat: where.seat, cards: input.value.trim() }, "missing-error");
  } catch (e) {
    input.focus();
    return;
  }
  dialog().close();
  entering = null;
  showState(answer);
}

export function bindMissing() {
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".enter-missing");
    if (button) {
      const item = button.closest(".missing-item");
      open({ deal: Number(item.dataset.deal), trick: Number(item.dataset.trick), seat: Number(item.dataset.seat),
        size: item.dataset.size ? Number(item.dataset.size) : null });
      return;
    }
    const pick = event.target.closest("#missing-dialog .pick-missing");
    if (pick) {
      const input = document.getElementById("missing-cards");
      input.value = (input.value.trim() ? input.value.trim() + " " : "") + pick.dataset.card;
      return;
    }
    if (event.target.closest("#missing-save")) { save().catch(() => {}); return; }
    if (event.target.closest("#missing-clear")) document.getElementById("missing-cards").value = "";
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.closest || !event.target.closest("#missing-cards")) return;
    event.preventDefault();
    save().catch(() => {});
  });
}

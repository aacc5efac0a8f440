/* The director's console's backup and restore (club/director.py, club/backup.py): the backup is a link to
 * download (the page's token in its address); a restore sends the chosen file (base64, in the one api())
 * with the director's confirmation, and the page reads the club again. A refusal is said under the form. */
import { api, setText, t } from "./client.js";

let reloadAll = async () => {};

function fileAsBase64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

async function restore(event) {
  event.preventDefault();
  const file = document.getElementById("restore-file").files[0];
  const body = { backup: file ? await fileAsBase64(file) : "", confirm: document.getElementById("restore-confirm").checked };
  let answer;
  try {
    answer = await api("/club/director/api/restore", body, "restore-error");
  } catch (e) {
    return;
  }
  document.getElementById("restore-confirm").checked = false;
  setText("restore-done", t("director.restore.done", answer));
  await reloadAll();
}

export function startBackup(reload) {
  reloadAll = reload;
  document.getElementById("restore-form").addEventListener("submit", restore);
}

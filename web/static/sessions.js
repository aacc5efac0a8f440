/* The sessions page (/sessions): the list is the server's HTML; this adds the language toggle, the
 * times in the visitor's locale and a confirmation before a session goes to the bin. */
import { startPage, t } from "./client.js";

startPage("static");
document.querySelectorAll("form.delete-form").forEach((form) => form.addEventListener("submit", (event) => {
  if (!window.confirm(t("sessions.delete_confirm"))) event.preventDefault();
}));

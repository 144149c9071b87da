// The account page's Notifications card: e-mails when a turn-based move becomes yours, a game
// ends or a friend takes the last seat of your table; opted in with the player's consent, sent once
// the address is confirmed by its link, and stopped here or with one click from any of the e-mails.
import { call } from "./api.js";
import { button, h, icon } from "./dom.js";
import { t } from "./i18n.js";

export function notifyCard() {
  const status = h("p", { class: "muted", id: "notify-status", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const address = h("input", { name: "address", type: "email", required: true, maxlength: 254, autocomplete: "email" });
  const consent = h("input", { name: "consent", type: "checkbox", required: true });
  const stop = button(t("notify.stop"), () => change(() => call("DELETE", "/api/me/notify/email")), { id: "notify-stop", class: "ghost" });
  const show = (settings) => {
    const shown = settings.confirmed ? "notify.on" : "notify.pending";
    status.textContent = settings.email ? t(shown, { address: settings.email }) : t("notify.off");
    stop.hidden = !settings.email;
    error.textContent = "";
  };
  const change = async (request) => {
    try {
      show(await request());
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  const form = h("form", { id: "notify-email" },
    h("label", { class: "field" }, h("span", {}, t("notify.address")), address),
    h("label", { class: "check" }, consent, " ", t("notify.consent")),
    h("button", { type: "submit", class: "primary" }, t("notify.save")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    change(() => call("PUT", "/api/me/notify/email", { address: address.value, consent: consent.checked }));
  });
  call("GET", "/api/me/notify").then(show, () => {});
  return h("section", { class: "card", id: "notify" }, h("h2", {}, icon("bell"), " ", t("notify.title")),
    h("p", {}, t("notify.help")), status, form, stop, error);
}

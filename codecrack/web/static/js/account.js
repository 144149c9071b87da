// The account page (#/account): a guest makes an account or signs in; an account signs out here or everywhere.
// An account adds and removes passkeys; anyone signs in with one (WebAuthn, where the browser has it).
// Any player turns notifications on this browser on or off, downloads its own data and deletes itself (an account
// confirms with its password).
import { api, call } from "./api.js";
import { button, h, icon } from "./dom.js";
import { t } from "./i18n.js";
import { notifyCard } from "./notify.js";
import { player } from "./players.js";
import { pushCard } from "./push.js";

export function showAccount(root) {
  const error = h("p", { class: "error", id: "account-error", role: "alert" });
  const done = () => { location.href = "/"; };
  const attempt = (call) => async (event) => {
    event?.preventDefault();
    try {
      await call();
      done();
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  const credentials = (id, submit, autocomplete, onsubmit) => {
    const form = h("form", { id },
      h("label", { class: "field" }, h("span", {}, t("account.handle")),
        h("input", { name: "handle", required: true, maxlength: 20, autocomplete: "username" })),
      h("label", { class: "field" }, h("span", {}, t("account.password")),
        h("input", { name: "password", type: "password", required: true, minlength: 8, maxlength: 256, autocomplete })),
      h("button", { type: "submit", class: "primary" }, submit));
    form.addEventListener("submit", attempt(() => onsubmit(form.handle.value, form.password.value)));
    return form;
  };
  const cards = [];
  if (player && !player.guest) {
    cards.push(h("section", { class: "card" }, h("h2", {}, icon("user"), " ", t("account.title")),
      h("p", {}, t("account.signed_in", { handle: player.handle }), " ",
        h("a", { href: `/u/${encodeURIComponent(player.handle)}`, id: "my-profile" }, t("account.profile"))),
      h("div", { class: "row" },
        button(t("account.sign_out"), attempt(() => api.signOut()), { id: "sign-out" }),
        button(t("account.sign_out_all"), attempt(() => api.signOutEverywhere()), { id: "sign-out-all", class: "ghost" })),
      error));
    if (PASSKEYS) cards.push(passkeyCard());
  } else {
    if (player) {
      cards.push(h("section", { class: "card" }, h("h2", {}, icon("user"), " ", t("account.create")),
        h("p", {}, t("account.create_help", { name: player.name })),
        credentials("account-create", t("account.create"), "new-password", (handle, password) => api.createAccount(handle, password))));
    }
    cards.push(h("section", { class: "card" }, h("h2", {}, icon("log-in"), " ", t("account.sign_in")),
      h("p", {}, t("account.sign_in_help")),
      credentials("sign-in", t("account.sign_in"), "current-password", (handle, password) => api.signIn(handle, password)),
      PASSKEYS ? button(t("passkeys.sign_in"), attempt(signInWithPasskey), { id: "passkey-sign-in", class: "ghost" }) : null,
      error));
  }
  if (player) cards.push(notifyCard(), pushCard(), leaving(attempt));
  root.replaceChildren(h("div", { class: "stack account" }, cards));
}

function leaving(attempt) {
  const form = h("form", { id: "delete-account" },
    player.guest ? null : h("label", { class: "field" }, h("span", {}, t("account.password")),
      h("input", { name: "password", type: "password", required: true, maxlength: 256, autocomplete: "current-password" })),
    h("button", { type: "submit", class: "ghost" }, t("account.delete")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!confirm(t("account.delete_confirm"))) return;
    attempt(() => call("DELETE", "/api/me", { password: form.password?.value ?? "" }))();
  });
  return h("section", { class: "card" }, h("h2", {}, icon("history"), " ", t("account.data")),
    h("p", {}, exportLink()), h("p", {}, t("account.delete_help")), form);
}

// The player's data saved as a file; a refusal (past the hourly limit) is shown here, never saved as the file.
function exportLink() {
  const error = h("span", { class: "error", id: "export-error", role: "alert" });
  const link = h("a", { href: "/api/me/export", download: EXPORT_FILE, id: "export" }, t("account.export"));
  link.addEventListener("click", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const url = URL.createObjectURL(await api.exportData());
      h("a", { href: url, download: EXPORT_FILE }).click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000); // once the browser has taken the file
    } catch (problem) {
      error.textContent = problem.message;
    }
  });
  return h("span", {}, link, " ", error);
}
const EXPORT_FILE = "codecrack-player.json";

// Passkeys need the JSON forms of the WebAuthn options and answers (every current browser has them).
const PASSKEYS = Boolean(window.PublicKeyCredential?.parseCreationOptionsFromJSON);

async function signInWithPasskey() {
  const options = await api.passkeySignInOptions();
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  await api.signInWithPasskey(options.challenge, credential.toJSON());
}

function passkeyCard() {
  const error = h("p", { class: "error", id: "passkey-error", role: "alert" });
  const list = h("ul", { id: "passkeys" });
  const when = (at) => new Date(at).toLocaleDateString();
  const show = (keys) => list.replaceChildren(...(keys.length ? keys.map((key) => h("li", { dataset: { id: key.id } },
    h("span", {}, t("passkeys.added", { date: when(key.created_at) }),
      key.used_at ? ` · ${t("passkeys.used", { date: when(key.used_at) })}` : ""), " ",
    button(t("passkeys.remove"), () => change(() => api.removePasskey(key.id)), { class: "ghost" })))
    : [h("li", { class: "muted" }, t("passkeys.none"))]));
  const change = async (call) => {
    error.textContent = "";
    try { show(await call()); } catch (problem) { error.textContent = problem.message; }
  };
  const add = async () => {
    const options = await api.passkeyOptions();
    const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
    return api.addPasskey(options.challenge, credential.toJSON());
  };
  change(() => api.passkeys());
  return h("section", { class: "card" }, h("h2", {}, icon("log-in"), " ", t("passkeys.title")),
    h("p", {}, t("passkeys.help")), list,
    button(t("passkeys.add"), () => change(add), { id: "add-passkey" }), error);
}

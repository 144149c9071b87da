// Web Push on this browser (opt-in, on the account page): the service worker subscribes with the server's
// VAPID key and the server keeps the subscription for the session's player; turning it off forgets both.
import { call } from "./api.js";
import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function subscription() {
  const registration = await navigator.serviceWorker.ready;
  return { registration, current: await registration.pushManager.getSubscription() };
}

async function turnOn() {
  if (await Notification.requestPermission() !== "granted") throw new Error(t("push.denied"));
  const { registration, current } = await subscription();
  const { key } = await call("GET", "/api/push/key");
  const made = current ?? await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const { endpoint, keys } = made.toJSON();
  await call("POST", "/api/push/subscriptions", { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
}

async function turnOff() {
  const { current } = await subscription();
  if (!current) return;
  await call("DELETE", "/api/push/subscriptions", { endpoint: current.endpoint });
  await current.unsubscribe();
}

export function pushCard() {
  const said = h("p", { id: "push-state", role: "status" });
  const box = h("input", { type: "checkbox", id: "push-on", disabled: !supported() });
  const card = h("section", { class: "card" }, h("h2", {}, icon("bell"), " ", t("push.title")),
    h("label", { class: "check" }, box, " ", t("push.on")), h("p", { class: "muted" }, t("push.help")), said);
  if (!supported()) {
    said.textContent = t("push.unsupported");
    return card;
  }
  subscription().then(({ current }) => { box.checked = Boolean(current); }).catch(() => {});
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      await (box.checked ? turnOn() : turnOff());
      said.textContent = t(box.checked ? "push.turned_on" : "push.turned_off");
    } catch (problem) {
      box.checked = !box.checked;
      said.textContent = problem.message;
    }
    box.disabled = false;
  });
  return card;
}

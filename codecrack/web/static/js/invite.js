// Inviting friends to a table with open seats: the host's invite panel (the link, the table's
// five-letter code, a QR code drawn by the server, each open seat "waiting for a friend"), and a
// visitor's large "Take seat N". Both go away by themselves once every seat is taken. A friends'
// table gives its seats only through its link, which holds the invitation (#invite=...): a
// visitor without it is told to ask for the link, and the code alone lets one watch. A seated
// player may renew the invitation: the old link stops working, the seated keep their seats.
import { api, seats } from "./api.js";
import { button, h } from "./dom.js";
import { t } from "./i18n.js";

const openSeats = (table) => table.seats.map((s, i) => [s, i]).filter(([s]) => s.kind === "human" && !s.claimed).map(([, i]) => i);

// Remembered per game, so that the home page offers "Learn" first to someone who never played it.
export function markPlayed(game) {
  localStorage.setItem(`codecrack:played:${game}`, "1");
}

export function hasPlayed(game) {
  return localStorage.getItem(`codecrack:played:${game}`) === "1";
}

// A seated player's invitation (for a friends' table) and QR code, fetched once (page.invite, page.qr).
export async function loadInvite(page, token) {
  if (page.qr !== undefined || page.table.over || !openSeats(page.table).length) return;
  page.qr = null;
  try {
    if (page.table.open_to === "link" && !page.invite) page.invite = (await api.invite(page.code, token)).invite;
    page.qr = new DOMParser().parseFromString(await api.qr(page.code, token), "image/svg+xml").documentElement;
  } catch {
    page.qr = undefined; // asked again at the next hello
    return;
  }
  page.render();
}

// A new invitation for the page's friends' table, shown at once (link, QR code, the page's own address).
async function renewInvite(page) {
  try {
    await invited(page, (await api.renewInvite(page.code, seats.get(page.code)?.token)).invite);
  } catch (error) {
    page.error = error.message;
    page.render();
  }
}

// The table's invitation is `invite` now (renewed here, or by another seated player: the "invite" message).
export async function invited(page, invite) {
  page.invite = invite;
  if (new URLSearchParams(location.hash.slice(1)).has("invite")) history.replaceState(null, "", `#invite=${invite}`);
  page.qr = undefined;
  await loadInvite(page, seats.get(page.code)?.token);
}

// `page` is the table page: its table info, seat, code, invite, qr, canSit() and sit().
export function invitePanel(page) {
  const { table, seat, code } = page;
  if (table.over || page.replay) return null;
  const open = openSeats(table);
  if (!open.length) return null;
  if (seat === null && !page.canSit()) {
    return h("section", { class: "card take-seat", id: "invite-only" }, h("p", {}, t("invite.ask")));
  }
  if (seat === null) {
    return h("section", { class: "card take-seat", id: "take-seat" },
      h("p", {}, t("invite.invited")),
      button(t("invite.take_seat", { number: open[0] + 1 }), () => page.sit(open[0]), { class: "primary big", id: "take-seat-go", dataset: { seat: open[0] } }));
  }
  if (!page.qr) return null; // on its way
  const link = `${location.origin}/t/${code}${page.invite ? `#invite=${page.invite}` : ""}`;
  return h("section", { class: "card invite", id: "invite" },
    h("h2", {}, t("invite.title")),
    h("p", {}, t(page.invite ? "invite.share_friends" : "invite.share")),
    h("div", { class: "invite-body" },
      h("div", { role: "img", "aria-label": t("invite.qr", { link }), class: "qr", id: "invite-qr" }, page.qr.cloneNode(true)),
      h("div", {},
        h("p", {}, h("input", { readonly: true, value: link, id: "invite-link", "aria-label": t("invite.link"), size: 32 }), " ",
          button(t("invite.copy"), () => page.copyLink(link), { id: "invite-copy" })),
        h("p", {}, t("invite.code"), " ", h("b", { class: "invite-code", id: "invite-code" }, code)),
        page.invite ? h("p", {}, button(t("invite.renew"), () => renewInvite(page), { class: "ghost", id: "invite-renew" }), " ",
          h("small", {}, t("invite.renew_note"))) : null,
        h("ul", { class: "invite-seats" }, open.map((i) => h("li", { dataset: { seat: i } }, t("invite.waiting", { number: i + 1 })))))));
}

// Inviting friends to a table with open seats: the host's invite panel (the link, the table's
// five-letter code, a QR code drawn by the server, each open seat "waiting for a friend"), and a
// visitor's large "Take seat N". Both go away by themselves once every seat is taken.
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

// `page` is the table page: its table info, seat, code and sit().
export function invitePanel(page) {
  const { table, seat, code } = page;
  if (table.over || page.replay) return null;
  const open = openSeats(table);
  if (!open.length) return null;
  if (seat === null) {
    return h("section", { class: "card take-seat", id: "take-seat" },
      h("p", {}, t("invite.invited")),
      button(t("invite.take_seat", { number: open[0] + 1 }), () => page.sit(open[0]), { class: "primary big", id: "take-seat-go", dataset: { seat: open[0] } }));
  }
  const link = `${location.origin}/t/${code}`;
  return h("section", { class: "card invite", id: "invite" },
    h("h2", {}, t("invite.title")),
    h("p", {}, t("invite.share")),
    h("div", { class: "invite-body" },
      h("img", { src: `/api/tables/${code}/qr.svg`, alt: t("invite.qr", { link }), class: "qr", id: "invite-qr", width: 164, height: 164 }),
      h("div", {},
        h("p", {}, h("input", { readonly: true, value: link, id: "invite-link", "aria-label": t("invite.link"), size: 32 }), " ",
          button(t("invite.copy"), () => page.copyLink(link), { id: "invite-copy" })),
        h("p", {}, t("invite.code"), " ", h("b", { class: "invite-code", id: "invite-code" }, code)),
        h("ul", { class: "invite-seats" }, open.map((i) => h("li", { dataset: { seat: i } }, t("invite.waiting", { number: i + 1 })))))));
}

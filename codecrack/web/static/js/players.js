// The browser's player: a guest made on the first visit, held by a session cookie the page cannot
// read; every seat it takes is linked to it, so any tab finds its seats again (docs/web.md).
import { api, seats, useCsrf } from "./api.js";
import { h, icon } from "./dom.js";
import { gameTitle } from "./games/index.js";
import { t } from "./i18n.js";

export let player = null;

// Who this browser is: its session's player, else a new guest. Without one (the server refused,
// or is older), the page still works: seats are then held by their tokens alone.
export async function identify() {
  try {
    let me = await api.me();
    if (!me.player) me = await api.guest(seats.name());
    player = me.player;
    useCsrf(me.csrf);
  } catch {
    player = null;
  }
}

// The header's link to the account page: the account's handle, else "Sign in".
export function accountLink() {
  const label = player && !player.guest ? player.handle : t("account.sign_in");
  return h("a", { href: "/#/account", id: "account-link", class: "account-link" }, icon("user"), " ", label);
}

// The seat this player holds at table `code`, when this tab does not know its token.
export async function recoverSeat(code) {
  if (!player || seats.get(code)) return;
  try {
    const mine = await api.mySeat(code);
    seats.set(code, mine.seat, mine.token);
  } catch {
    // no seat here: a spectator
  }
}

// The lobby's list of the unfinished tables where this player holds a seat (empty: nothing shown).
export function myTablesCard() {
  const box = h("section", { class: "card", id: "my-tables", hidden: true });
  if (player) {
    api.mySeats().then((mine) => {
      if (!mine.length) return;
      box.hidden = false;
      box.replaceChildren(h("h2", {}, icon("user"), " ", t("lobby.mine.title")), h("ul", { class: "tables" },
        mine.map((s) => h("li", {}, h("a", { href: `/t/${s.code}` }, h("b", {}, s.code), " ", gameTitle(s.game)),
          h("span", { class: "muted" }, ` ${t("app.seat", { number: s.seat + 1 })}`)))));
    }).catch(() => {});
  }
  return box;
}

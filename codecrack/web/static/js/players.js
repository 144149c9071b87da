// The browser's player: a guest made on the first visit, held by a session cookie the page cannot
// read; every seat it takes is linked to it, so any tab finds its seats again (docs/web.md).
import { api, seats, useCsrf } from "./api.js";
import { h, icon, seatName } from "./dom.js";
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

// The tables this browser sits at, the latest first: the seats it keeps tokens for, then those the
// player holds elsewhere (taken in another browser; the table page fetches their token).
export async function knownSeats() {
  const kept = seats.mine();
  const held = player ? await api.mySeats().catch(() => []) : [];
  const codes = new Set(kept.map((entry) => entry.code));
  return [...kept, ...held.filter((entry) => !codes.has(entry.code))];
}

// "Rated" beside a table whose game counts for ratings (when every human seat is an account's).
export function ratedTag(table) {
  return table.rated ? h("span", { class: "tag rated", title: t("ratings.rated_help") }, t("ratings.rated")) : null;
}

// A rating as shown: the number, with "?" while it is provisional (fewer than 10 rated games).
export function ratingText(rating, provisional) {
  return provisional ? `${rating}?` : String(rating);
}

// The end screen's rating changes of a rated game: each account's rating before and after.
export function ratingChanges(changes, table) {
  if (!changes?.length) return null;
  return h("section", { class: "card rating-changes", id: "rating-changes" },
    h("h2", {}, icon("trophy"), " ", t("ratings.changes")),
    h("ul", {}, changes.map((c) => {
      const diff = c.after - c.before;
      return h("li", { dataset: { seat: c.seat } }, h("b", {}, seatName(table, c.seat)), " ",
        ratingText(c.before, c.provisional), " → ", ratingText(c.after, c.provisional), " ",
        h("span", { class: diff >= 0 ? "gain" : "loss" }, `(${diff >= 0 ? "+" : ""}${diff})`));
    })));
}

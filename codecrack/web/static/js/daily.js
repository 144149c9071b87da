// The daily puzzles (/daily?game=GAME): each game's own page, the daily.js its package ships (named
// in /api/games), with links to the other games' daily puzzles. Without ?game=, the first game's.
import { h } from "./dom.js";
import { gameList, gameModule } from "./games/index.js";
import { t } from "./i18n.js";

export async function showDaily(root) {
  const games = (await gameList()).filter((game) => game.daily);
  const wanted = new URLSearchParams(location.search).get("game");
  const game = games.find((one) => one.name === wanted) ?? games[0];
  if (!game) {
    root.replaceChildren(h("section", { class: "card" }, h("p", { id: "error" }, t("daily.none"))));
    return;
  }
  const pages = new Map(await Promise.all(games.map(async (one) => [one.name, (await import(one.daily)).default])));
  const others = () => h("p", { class: "row daily-others" }, games.filter((one) => one !== game).map((one) =>
    h("a", { href: `/daily?game=${one.name}`, id: `daily-${one.name}`, class: "button" }, t(pages.get(one.name).title))));
  const page = await pages.get(game.name).show(root, { board: await gameModule(game.name), others });
  window.codecrack = page; // handy in the console and for tests
}

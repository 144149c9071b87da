// The how-to page of a game (#/rules/GAME): goal, set-up, a turn, the end, what each option
// changes (the titles and descriptions of the game's own options, from /api/games), pictures
// drawn by the game's own board component, and the strategy tips.
import { api, seats } from "../api.js";
import { button, choiceTitle, h, seatName } from "../dom.js";
import { gameModule, gameTitle } from "../games/index.js";
import { known, t } from "../i18n.js";

// The games with a tutorial, in the order a newcomer should meet them (from /api/games).
export function learnable(games) {
  return games.filter((g) => g.learn != null).sort((a, b) => a.learn - b.learn).map((g) => g.name);
}
const SECTIONS = ["goal", "setup", "turn", "end"];

export function rulesHref(game) {
  return `/#/rules/${game}`;
}

// A new tutorial table (the server picks its seed and script), then its page; a refusal (too
// many new tables) is shown in `errorBox`.
export async function startTutorial(game, errorBox) {
  try {
    const made = await api.tutorial(game, seats.name());
    seats.set(made.code, made.seat, made.token);
    location.href = `/t/${made.code}`;
  } catch (error) {
    errorBox.textContent = error.message;
  }
}

function paragraphs(key) {
  return known(key) ? t(key).split("\n").map((line) => h("p", {}, line)) : null;
}

// An example view drawn by the game's own board component, with nothing to click.
export function drawExample(module, view) {
  const table = { seats: [{ name: seatName(null, 0) }, { name: seatName(null, 1) }] };
  const ctx = { view, table, seat: view.seat, ui: {}, hint: null, notes: {}, saveNotes() {}, rerender() {}, send: null,
    name: (seat) => seatName(table, seat) };
  return module.board(view, ctx);
}

function picture(module, captions, view) {
  return h("figure", { class: "example" }, h("div", { class: `board game-${view.game}` }, drawExample(module, view)),
    h("figcaption", {}, [captions].flat().map((key) => h("p", {}, t(key)))));
}

function optionList(game) {
  if (!game?.options.length) return null;
  return h("dl", { class: "option-list" }, game.options.map((option) => [
    h("dt", {}, option.title, h("span", { class: "muted" }, ` · ${t("learn.rules.default", { value: shown(option) })}`)),
    h("dd", {}, option.help)]));
}

// An option's default in words: on or off, what no seat means, a choice's label.
function shown(option) {
  const value = option.default;
  if (typeof value === "boolean") return t(value ? "learn.rules.on" : "learn.rules.off");
  if (value === null || value === undefined) return option.unset || "—";
  return choiceTitle(value);
}

export async function showRules(root, name) {
  const [games, module] = await Promise.all([api.games(), gameModule(name)]);
  const names = learnable(games);
  if (!names.includes(name)) {
    root.replaceChildren(h("section", { class: "card" }, h("p", {}, t("learn.nogame")), h("a", { href: "/" }, t("learn.back"))));
    return;
  }
  const game = games.find((g) => g.name === name);
  document.title = `${t("learn.howto")}: ${gameTitle(name)} · codecrack`;
  const refused = h("p", { class: "error", id: "rules-error", role: "alert" });
  root.replaceChildren(h("article", { class: "rules-page", id: "rules", dataset: { game: name } },
    h("div", { class: "rules-head" }, h("h1", {}, `${t("learn.howto")}: ${gameTitle(name)}`),
      button(t("learn.tutorial.start"), () => startTutorial(name, refused), { class: "primary", id: "rules-tutorial" }),
      h("a", { href: "/", id: "rules-back" }, t("learn.back")), refused),
    h("nav", { class: "rules-games" }, names.map((other) => h("a", { href: rulesHref(other),
      "aria-current": other === name ? "page" : null }, gameTitle(other)))),
    SECTIONS.map((section) => h("section", { class: "card", id: `rules-${section}` },
      h("h2", {}, t(`learn.rules.${section}`)), paragraphs(`learn.rules.${name}.${section}`))),
    module.chart ? h("section", { class: "card", id: "rules-chart" }, h("h2", {}, t("learn.rules.chart")), module.chart(game?.facts ?? {})) : null,
    h("section", { class: "card", id: "rules-pictures" }, h("h2", {}, t("learn.rules.pictures")),
      module.teaching.examples.map(([captions, view]) => picture(module, captions, { ...game?.facts, ...view }))),
    h("section", { class: "card", id: "rules-options" }, h("h2", {}, t("learn.rules.options")),
      h("p", { class: "muted" }, t("learn.rules.options.intro")), optionList(game)),
    h("section", { class: "card", id: "rules-tips" }, h("h2", {}, t("learn.rules.tips")),
      h("ul", {}, module.teaching.tips.map((key) => h("li", {}, t(key)))))));
}

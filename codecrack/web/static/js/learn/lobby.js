// The lobby's "Learn the games" card: each game's how-to page and tutorial.
import { button, h, icon } from "../dom.js";
import { gameTitle } from "../games/index.js";
import { learnable, rulesHref, startTutorial } from "./rules.js";
import { t } from "../i18n.js";

export function learnCard(games) {
  const offered = learnable(games);
  const refused = h("p", { class: "error", id: "learn-error", role: "alert" });
  return h("section", { class: "card", id: "learn" }, h("h2", {}, icon("notebook-pen"), ` ${t("learn.title")}`),
    h("ul", { class: "learn-list" }, offered.map((name) => h("li", { dataset: { game: name } },
      h("b", {}, gameTitle(name)), " ",
      h("a", { href: rulesHref(name), class: "howto" }, t("learn.howto")), " ",
      button(t("learn.tutorial"), () => startTutorial(name, refused), { class: "tutorial", dataset: { game: name } })))),
    refused);
}

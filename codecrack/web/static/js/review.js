// The post-game review beside the replay: every decision of this seat, graded, step by step.
import { button, h } from "./dom.js";
import { known, t } from "./i18n.js";

const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];

function number(value, unit) {
  return unit === "chance" ? `${(value * 100).toFixed(1)}%` : `${value.toFixed(2)} ${translated("review.unit", unit)}`;
}

// A word the server sends (a grade, a decision's kind, a unit) in the page's language, where the catalogue has it.
function translated(prefix, word) {
  return known(`${prefix}.${word}`) ? t(`${prefix}.${word}`) : word;
}

function decisionRow(d, current, go) {
  return h("li", { class: `review-decision grade-${d.grade}${d.step === current ? " current" : ""}` },
    button(t("review.step", { step: d.step }), () => go(d.step), { class: "review-step", title: t("review.show_moment") }),
    h("span", { class: "review-kind" }, translated("review.kind", d.kind)),
    h("span", { class: "review-did" }, `${d.did} (${number(d.value, d.unit)})`),
    h("b", { class: "review-grade" }, translated("review.grade", d.grade)),
    d.grade === "best" ? null : h("span", { class: "review-best" }, t("review.best", { move: d.best, value: number(d.best_value, d.unit) })),
    d.note ? h("span", { class: "muted review-note" }, d.note) : null);
}

// review: the JSON of GET /api/tables/{code}/review; current: the replay step shown; go(step) moves there;
// game: the table's game (a game may add to the explanation, e.g. Coda's tile numbers).
export function reviewPanel(review, current, go, game) {
  const steps = [...new Set(review.decisions.map((d) => d.step))];
  const next = steps.find((s) => s > current);
  const previous = [...steps].reverse().find((s) => s < current);
  const tally = GRADES.map((g) => h("span", { class: `grade-${g}` }, `${review.tally[g]} ${translated("review.grade", g)}`));
  return h("section", { class: "card review", id: "review-panel" },
    h("h3", {}, t("review.title")),
    h("p", { class: "review-tally" }, tally),
    h("p", { class: "muted", id: "review-explained" }, t("review.explained"),
      known(`review.explained.${game}`) ? ` ${t(`review.explained.${game}`)}` : ""),
    h("div", { class: "row" },
      button(t("review.previous"), () => go(previous), { id: "review-previous", disabled: previous === undefined }),
      button(t("review.next"), () => go(next), { id: "review-next", disabled: next === undefined })),
    review.decisions.length
      ? h("ol", { class: "review-list" }, review.decisions.map((d) => decisionRow(d, current, go)))
      : h("p", { class: "muted" }, t("review.none")));
}

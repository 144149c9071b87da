// The post-game review beside the replay: every decision of this seat, graded, step by step.
import { button, h } from "./dom.js";

const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];

function number(value, unit) {
  return unit === "chance" ? `${(value * 100).toFixed(1)}%` : `${value.toFixed(2)} ${unit}`;
}

function decisionRow(d, current, go) {
  return h("li", { class: `review-decision grade-${d.grade}${d.step === current ? " current" : ""}` },
    button(`step ${d.step}`, () => go(d.step), { class: "review-step", title: "Show this moment" }),
    h("span", { class: "review-kind" }, d.kind),
    h("span", { class: "review-did" }, `${d.did} (${number(d.value, d.unit)})`),
    h("b", { class: "review-grade" }, d.grade),
    d.grade === "best" ? null : h("span", { class: "review-best" }, `best: ${d.best} (${number(d.best_value, d.unit)})`),
    d.note ? h("span", { class: "muted review-note" }, d.note) : null);
}

// review: the JSON of GET /api/tables/{code}/review; current: the replay step shown; go(step) moves there.
export function reviewPanel(review, current, go) {
  const steps = [...new Set(review.decisions.map((d) => d.step))];
  const next = steps.find((s) => s > current);
  const previous = [...steps].reverse().find((s) => s < current);
  const tally = GRADES.map((g) => h("span", { class: `grade-${g}` }, `${review.tally[g]} ${g}`));
  return h("section", { class: "card review", id: "review-panel" },
    h("h3", {}, "Review of your decisions"),
    h("p", { class: "review-tally" }, tally),
    h("p", { class: "muted" }, "Each value is exact, from what you could see at that moment. Steps match the replay; "
      + "seats and tiles are numbered from 0, as in the engine."),
    h("div", { class: "row" },
      button("Previous decision", () => go(previous), { id: "review-previous", disabled: previous === undefined }),
      button("Next decision", () => go(next), { id: "review-next", disabled: next === undefined })),
    review.decisions.length
      ? h("ol", { class: "review-list" }, review.decisions.map((d) => decisionRow(d, current, go)))
      : h("p", { class: "muted" }, "No decisions to review for this seat."));
}

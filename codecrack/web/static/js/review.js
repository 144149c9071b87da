// The post-game review beside the replay: every decision of this seat, graded, step by step.
import { button, h } from "./dom.js";
import { known, t } from "./i18n.js";

const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];

// A value in plain words: "63.0% chance", "2.10 expected tiles you would win from here", and for
// information, the share of the best choice's ("narrows the code 86% as much as the best question").
function amount(d, value) {
  if (d.share) {
    const percent = d.best_value > 0 ? Math.round((100 * value) / d.best_value) : 100;
    return t(known(`review.share.${d.kind}`) ? `review.share.${d.kind}` : "review.share", { percent });
  }
  if (d.unit === "chance") return t("review.amount.chance", { percent: (value * 100).toFixed(1) });
  const number = value.toFixed(2);
  return known(`review.amount.${d.unit}`) ? t(`review.amount.${d.unit}`, { value: number }) : `${number} ${d.unit}`;
}

// How far short of the best a loss of `loss` is, in the scale's terms ("15%", "5 percentage points").
function shortBy(d, loss) {
  if (d.share || d.unit === "chance") return t(d.share ? "review.short.share" : "review.short.chance", { amount: Math.round(loss * 100) });
  const value = loss.toFixed(2);
  return known(`review.short.${d.unit}`) ? t(`review.short.${d.unit}`, { value }) : `${value} ${d.unit}`;
}

// The grade's meaning, on hover: where its scale puts it.
function gradeWhy(d) {
  const [good, inaccuracy, mistake] = d.limits ?? [];
  if (good === undefined) return translated("review.grade", d.grade);
  const bounds = { best: [], good: [good], inaccuracy: [good, inaccuracy], mistake: [inaccuracy, mistake], blunder: [mistake] }[d.grade];
  const [low, high] = (bounds ?? []).map((loss) => shortBy(d, loss));
  return t(`review.why.${d.grade}`, { low, high });
}

// A word the server sends (a grade, a decision's kind, a unit) in the page's language, where the catalogue has it.
function translated(prefix, word) {
  return known(`${prefix}.${word}`) ? t(`${prefix}.${word}`) : word;
}

function decisionRow(d, current, go) {
  const why = gradeWhy(d);
  return h("li", { class: `review-decision grade-${d.grade}${d.step === current ? " current" : ""}` },
    button(t("review.step", { step: d.step }), () => go(d.step), { class: "review-step", title: t("review.show_moment") }),
    h("span", { class: "review-kind" }, translated("review.kind", d.kind)),
    h("span", { class: "review-did" }, `${d.did} (${amount(d, d.value)})`),
    h("b", { class: "review-grade", title: why }, translated("review.grade", d.grade), h("span", { class: "sr-only" }, ` (${why})`)),
    d.grade === "best" ? null : h("span", { class: "review-best" }, t("review.best", { move: d.best, value: amount(d, d.best_value) })),
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

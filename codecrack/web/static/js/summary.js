// The end of a game, for players, spectators and the replay's last frame: the moves that decided
// it (result.decisive: indices into the history, told with the game's own history lines) and what
// the game adds (codes, rounds, questions). The banner above it names the winners and the scores.
import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

export function endSummary(view, ctx, module) {
  const result = view.result;
  if (!result) return null;
  const decisive = (result.decisive ?? []).map((i) => view.history?.[i]).filter(Boolean)
    .map((event) => module.describe(event, ctx)).filter(Boolean);
  const extra = module.summary?.(view, ctx) ?? [];
  return h("section", { class: "card end-summary", id: "end-summary" },
    h("h2", {}, icon("trophy"), " ", t("table.end.title")),
    h("p", { class: "muted" }, t("table.end.revealed")),
    decisive.length ? h("h3", {}, t("table.end.decisive")) : null,
    decisive.length ? h("ol", { class: "decisive", id: "decisive" }, decisive.map((line) => h("li", {}, line))) : null,
    extra.length ? h("ul", { class: "end-extra" }, extra.map((line) => h("li", {}, line))) : null);
}

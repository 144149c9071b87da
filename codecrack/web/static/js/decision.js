// A decision daily's page (one answer a day, see codecrack/core/daily.py): the seat's view on the game's
// own board; once answered, the exact odds of the likeliest answers from that seat's view (the server
// sends them only with the answer), the best one and the player's, the streak and a text to share.
// A game's daily.js gives its pieces: `game`, `kind` (the action type that answers), `prefix` (its
// catalogue keys PREFIX.title, PREFIX.title_of, PREFIX.intro), `name(seat, view)` and `answerText(action)`.
import { call } from "./api.js";
import { answered, boardContext } from "./daily_page.js";
import { button, h } from "./dom.js";
import { t } from "./i18n.js";

export function decisionDaily(game) {
  return {
    title: `${game.prefix}.title`,
    async show(root, host) {
      const page = new DecisionPage(root, host, game);
      await answered(page, () => call("GET", `/api/daily/${game.game}`), (puzzle) => { page.puzzle = puzzle; });
      return page;
    },
  };
}

const percent = (p) => `${(100 * p).toFixed(1)} %`;

class DecisionPage {
  constructor(root, host, game) {
    this.root = root;
    this.host = host;
    this.game = game;
    this.module = host.board;
    this.puzzle = null;
    this.ui = {};
    this.error = "";
    document.title = `${t(`${game.prefix}.title`)} · codecrack`;
  }

  async send(action) {
    if (action.type !== this.game.kind) return;
    await answered(this, () => call("POST", `/api/daily/${this.game.game}`, { guess: action }), (puzzle) => { this.puzzle = puzzle; });
  }

  context() {
    const { view, answer } = this.puzzle;
    return boardContext(this, { view, seat: view.seat, over: Boolean(answer), name: (seat) => this.game.name(seat, view) });
  }

  render() {
    if (!this.puzzle) {
      this.root.replaceChildren(h("section", { class: "card" }, h("p", { class: "error", id: "error" }, this.error)));
      return;
    }
    const { day, grade, view, streak, answer } = this.puzzle;
    const { prefix } = this.game;
    const ctx = this.context();
    this.root.replaceChildren(h("section", { class: "card daily puzzle", id: "puzzle", dataset: { answered: String(Boolean(answer)) } },
      h("h2", {}, t(`${prefix}.title_of`, { day })),
      h("p", { class: "muted" }, t(`${prefix}.intro`)),
      h("p", { id: "puzzle-grade" }, t("puzzle.grade", { grade: t(`puzzle.grade.${grade}`) })),
      h("p", { id: "puzzle-streak" }, t("daily.streak", { count: streak.current, best: streak.best })),
      answer ? this.result(answer) : null,
      h("div", { class: "board" }, this.module.board(view, ctx)),
      this.error && !ctx.errorShown ? h("p", { class: "error", id: "error", role: "alert" }, this.error) : null,
      this.host.others()));
  }

  result(answer) {
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const text = (entry) => this.game.answerText(entry.guess, this.puzzle.view);
    const more = (answer.possible ?? answer.odds.length) - answer.odds.length;
    return h("div", { class: "daily-result", id: "puzzle-result" },
      h("h3", { role: "status" }, answer.solved ? t("puzzle.solved") : t("puzzle.not_best", { score: answer.score })),
      h("p", { id: "puzzle-chosen" }, t("puzzle.chosen", { guess: text(answer.chosen), p: percent(answer.chosen.p) })),
      h("p", { id: "puzzle-best" }, t("puzzle.best", { guess: text(answer.best), p: percent(answer.best.p) })),
      h("details", { class: "puzzle-odds", open: true }, h("summary", {}, t("puzzle.odds")),
        h("ol", { id: "puzzle-odds" }, answer.odds.map((entry) => h("li", {
          class: [same(entry.guess, answer.best.guess) ? "best" : "", same(entry.guess, answer.chosen.guess) ? "mine" : ""].join(" ").trim(),
        }, `${text(entry)}: ${percent(entry.p)}`))),
        more > 0 ? h("p", { class: "muted", id: "puzzle-more" }, t("puzzle.more", { count: more })) : null),
      h("pre", { class: "daily-share", id: "puzzle-share" }, answer.share),
      button(this.copied ? t("daily.copied") : t("daily.copy"), async () => {
        await navigator.clipboard?.writeText(answer.share).catch(() => {});
        this.copied = true;
        this.render();
      }, { id: "puzzle-copy" }));
  }
}

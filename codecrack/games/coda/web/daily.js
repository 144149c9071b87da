// The daily Coda puzzle (the host's /daily?game=coda): a position from a real game where one guess is
// clearly best. The player guesses on Coda's own board; the answer then shows the exact odds of every
// guess from that seat's view (the server sends them only with the answer), the best one and the
// player's, the player's streak (days in a row with the best guess) and a text to share that spoils nothing.
import { call } from "/static/js/api.js";
import { button, h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

export default {
  title: "puzzle.title",
  async show(root, host) {
    const page = new PuzzlePage(root, host);
    try {
      page.puzzle = await call("GET", "/api/daily/coda");
    } catch (error) {
      page.error = error.message;
    }
    page.render();
    return page;
  },
};

const percent = (p) => `${(100 * p).toFixed(1)} %`;

class PuzzlePage {
  constructor(root, host) {
    this.root = root;
    this.host = host;
    this.module = host.board;
    this.puzzle = null;
    this.ui = {};
    this.error = "";
    document.title = `${t("puzzle.title")} · codecrack`;
  }

  async send(action) {
    if (action.type !== "guess") return;
    try {
      this.puzzle = await call("POST", "/api/daily/coda", { guess: action });
      this.error = "";
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  context() {
    const { view, answer } = this.puzzle;
    return {
      view, table: null, seat: view.seat, ui: this.ui, hint: null, error: this.error, notes: {}, saveNotes: () => {},
      rerender: () => this.render(), send: answer ? null : (action) => this.send(action),
      name: (seat) => t(seat === view.seat ? "puzzle.you" : "puzzle.opponent"),
    };
  }

  render() {
    if (!this.puzzle) {
      this.root.replaceChildren(h("section", { class: "card" }, h("p", { class: "error", id: "error" }, this.error)));
      return;
    }
    const { day, grade, view, streak, answer } = this.puzzle;
    const ctx = this.context();
    this.root.replaceChildren(h("section", { class: "card daily puzzle", id: "puzzle", dataset: { answered: String(Boolean(answer)) } },
      h("h2", {}, t("puzzle.title_of", { day })),
      h("p", { class: "muted" }, t("puzzle.intro")),
      h("p", { id: "puzzle-grade" }, t("puzzle.grade", { grade: t(`puzzle.grade.${grade}`) })),
      h("p", { id: "puzzle-streak" }, t("daily.streak", { count: streak.current, best: streak.best })),
      answer ? this.result(answer) : null,
      h("div", { class: "board" }, this.module.board(view, ctx)),
      this.error && !ctx.errorShown ? h("p", { class: "error", id: "error", role: "alert" }, this.error) : null,
      this.host.others()));
  }

  guessText(guess) {
    return t("puzzle.guess", { number: guess.index + 1, color: t(`coda.color.${guess.color}`), value: guess.value });
  }

  result(answer) {
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    return h("div", { class: "daily-result", id: "puzzle-result" },
      h("h3", { role: "status" }, answer.solved ? t("puzzle.solved") : t("puzzle.not_best", { score: answer.score })),
      h("p", { id: "puzzle-chosen" }, t("puzzle.chosen", { guess: this.guessText(answer.chosen.guess), p: percent(answer.chosen.p) })),
      h("p", { id: "puzzle-best" }, t("puzzle.best", { guess: this.guessText(answer.best.guess), p: percent(answer.best.p) })),
      h("details", { class: "puzzle-odds", open: true }, h("summary", {}, t("puzzle.odds")),
        h("ol", { id: "puzzle-odds" }, answer.odds.map((entry) => h("li", {
          class: [same(entry.guess, answer.best.guess) ? "best" : "", same(entry.guess, answer.chosen.guess) ? "mine" : ""].join(" ").trim(),
        }, `${this.guessText(entry.guess)}: ${percent(entry.p)}`)))),
      h("pre", { class: "daily-share", id: "puzzle-share" }, answer.share),
      button(this.copied ? t("daily.copied") : t("daily.copy"), async () => {
        await navigator.clipboard?.writeText(answer.share).catch(() => {});
        this.copied = true;
        this.render();
      }, { id: "puzzle-copy" }));
  }
}

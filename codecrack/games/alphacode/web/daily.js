// The daily Alphabet Code (the host's /daily?game=alphacode): today's code (one scored attempt) or a
// practice code, asked and declared alone on the game's own board; the result, the day's scores and a
// text to share once it is over. `host` gives the board module and the links to the other daily puzzles.
import { call } from "/static/js/api.js";
import { h, button, announce } from "/static/js/dom.js";
import { answered, boardContext } from "/static/js/daily_page.js";
import { t } from "/static/js/i18n.js";

export default {
  title: "daily.title",
  async show(root, host) {
    const page = new DailyPage(root, host);
    await page.open(false);
    return page;
  },
};

class DailyPage {
  constructor(root, host) {
    this.root = root;
    this.host = host;
    this.module = host.board;
    this.attempt = null;
    this.ui = {};
    this.error = "";
    this.copied = false;
    document.title = `${t("daily.title")} · codecrack`;
  }

  async open(practice) {
    await answered(this, () => call("POST", "/api/daily/alphacode", { practice }), (attempt) => {
      this.attempt = attempt;
      this.ui = {};
    });
  }

  async send(action) {
    await answered(this, () => call("POST", `/api/daily/alphacode/${this.attempt.id}`, { action }), (attempt) => {
      this.attempt = attempt;
      if (attempt.event?.type === "declared" && !attempt.event.correct) announce(t("daily.wrong"));
    });
  }

  context() {
    const { view, over, practice } = this.attempt;
    return boardContext(this, { view, seat: 0, over, name: () => t(practice ? "daily.practice_owner" : "daily.owner") });
  }

  render() {
    if (!this.attempt) {
      this.root.replaceChildren(h("section", { class: "card" }, h("p", { class: "error", id: "error" }, this.error)));
      return;
    }
    const attempt = this.attempt;
    const ctx = this.context();
    const streak = attempt.streak;
    this.root.replaceChildren(h("section", { class: "card daily", id: "daily", dataset: { over: String(attempt.over) } },
      h("h2", {}, attempt.practice ? t("daily.practice_title") : t("daily.title_of", { day: attempt.day })),
      h("p", { class: "muted" }, t("daily.intro")),
      h("p", { id: "daily-streak" }, t("daily.streak", { count: streak.current, best: streak.best })),
      h("p", { id: "daily-score", role: "status" }, t("daily.score", { count: attempt.score })),
      attempt.over ? this.result(attempt) : null,
      h("div", { class: "board" }, this.module.board(attempt.view, ctx)),
      this.error && !ctx.errorShown ? h("p", { class: "error", id: "error", role: "alert" }, this.error) : null,
      h("div", { class: "row" },
        attempt.over ? null : button(t("daily.give_up"), () => this.send({ type: "give_up" }), { id: "daily-give-up" }),
        button(t("daily.practice"), () => this.open(true), { id: "daily-practice" }),
        attempt.practice ? button(t("daily.back_to_today"), () => this.open(false), { id: "daily-today" }) : null),
      this.host.others(),
      this.module.notes(attempt.view, ctx)));
  }

  result(attempt) {
    const { code, hard, distribution, share } = attempt.result;
    const letters = code.map((e) => `${e.letter}@${e.row}${e.column}`).join(" ");
    return h("div", { class: "daily-result", id: "daily-result" },
      h("h3", {}, attempt.solved ? t("daily.solved", { count: attempt.score }) : t("daily.unsolved")),
      h("p", {}, t("daily.the_code", { letters })),
      h("p", { id: "daily-hard" }, t("daily.hard", { count: hard })),
      distribution ? this.chart(distribution, attempt.solved ? attempt.score : null) : null,
      h("pre", { class: "daily-share", id: "daily-share" }, share),
      button(this.copied ? t("daily.copied") : t("daily.copy"), async () => {
        await navigator.clipboard?.writeText(share).catch(() => {});
        this.copied = true;
        this.render();
      }, { id: "daily-copy" }));
  }

  // Everyone's scores today as bars; the player's own bar marked.
  chart(distribution, mine) {
    const rows = Object.entries(distribution.scores).map(([score, count]) => [score, count]);
    if (distribution.unsolved) rows.push(["X", distribution.unsolved]);
    const most = Math.max(1, ...rows.map(([, count]) => count));
    return h("div", { class: "daily-chart", id: "daily-chart", role: "table", "aria-label": t("daily.everyone") },
      h("b", {}, t("daily.everyone")),
      rows.map(([score, count]) => h("div", { class: `daily-bar${String(mine) === score ? " mine" : ""}`, role: "row" },
        h("span", { role: "cell" }, score === "X" ? t("daily.unsolved_short") : score),
        h("span", { class: "bar", style: `width: ${Math.round((100 * count) / most)}%`, role: "cell" }, String(count)))));
  }
}

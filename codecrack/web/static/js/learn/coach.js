// The tutorial coach: explains each step of the server's script, highlights the control to use,
// and refuses any other action with a hint. Its place in the script is kept in localStorage.
import { api } from "../api.js";
import { button, h } from "../dom.js";
import { t } from "../i18n.js";
import { gameModule } from "../games/index.js";

export const TUTORIAL_AGENT = "tutorial";

export function isTutorial(table) {
  return table.seats.some((seat) => seat.agent === TUTORIAL_AGENT);
}

// Two actions are the same whatever the order of their keys and of a code's letters.
function canonical(value) {
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    return value.every((v) => v && typeof v === "object" && "letter" in v) ? items.sort() : items;
  }
  if (value && typeof value === "object") {
    return JSON.stringify(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return JSON.stringify(value);
}

export function sameAction(a, b) {
  return canonical(a) === canonical(b);
}

export class Coach {
  static async load(code, game) {
    const [{ lessons }, module] = await Promise.all([api.lessons(game), gameModule(game)]);
    return new Coach(code, game, lessons, module.teaching);
  }

  constructor(code, game, lessons, teaching) {
    this.key = `codecrack:coach:${code}`;
    this.game = game;
    this.lessons = lessons;
    this.teaching = teaching; // what to point at: the game's own
    this.done = Number(localStorage.getItem(this.key) || 0);
    this.hint = "";
    this.shown = { view: {}, step: -1 };
  }

  get lesson() {
    return this.lessons[this.done] ?? null;
  }

  advance() {
    this.done += 1;
    this.hint = "";
    localStorage.setItem(this.key, String(this.done));
  }

  // Called for every action the page is about to send: true lets it go. The lesson's action goes
  // only once it is due: in a step both seats take (Coda's opening), the scripted opponent acts
  // first, since the deal depends on the order.
  allows(action) {
    const lesson = this.lesson;
    if (!lesson) return true;
    if (lesson.action && sameAction(action, lesson.action) && !this.due(lesson, this.shown.view, this.shown.step)) {
      this.hint = t("learn.coach.wait");
      return false;
    }
    if (lesson.action && sameAction(action, lesson.action)) {
      this.advance();
      return true;
    }
    this.hint = t(lesson.action ? "learn.coach.refused" : "learn.coach.read");
    return false;
  }

  // A lesson is shown once the scripted moves before it have happened and, for a click, once it
  // is the learner's move.
  due(lesson, view, step) {
    const myTurn = view.seat !== null && (view.to_move ?? []).includes(view.seat);
    return step >= lesson.at && (!lesson.action || myTurn);
  }

  text(lesson, view, step) {
    if (!this.due(lesson, view, step)) return t("learn.coach.wait");
    return t(`learn.tutorial.${this.game}.${lesson.say}`, lesson.action ?? {});
  }

  panel(view, step, rerender) {
    this.shown = { view, step }; // what the learner sees: allows() waits for the lesson to be due there
    const lesson = this.lesson;
    const steps = t("learn.coach.step", { at: Math.min(this.done + 1, this.lessons.length), of: this.lessons.length });
    return h("section", { class: "card coach", id: "coach", role: "status", "data-finished": lesson ? null : true },
      h("h2", {}, t("learn.coach.title"), h("span", { class: "muted" }, ` · ${steps}`)),
      h("p", { id: "coach-text" }, lesson ? this.text(lesson, view, step) : t(view.result ? "learn.coach.finished_over" : "learn.coach.finished")),
      lesson && !lesson.action && this.due(lesson, view, step) ? button(t("learn.coach.next"), () => { this.advance(); rerender(); },
        { class: "primary", id: "coach-next" }) : null,
      this.hint ? h("p", { class: "error", id: "coach-hint" }, this.hint) : null);
  }

  // Outline the control the current lesson waits for (after every render).
  decorate(root, view, step, ui) {
    const lesson = this.lesson;
    if (!lesson || !this.due(lesson, view, step)) return;
    const { reading, targets } = this.teaching;
    for (const selector of lesson.action ? targets(lesson.action, view, ui) : reading[lesson.say] ?? []) {
      root.querySelectorAll(selector).forEach((el) => {
        el.classList.add("coach-target");
        const described = (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
        el.setAttribute("aria-describedby", [...described, "coach-text"].join(" ")); // the coach's words, read with it
      });
    }
  }
}

// Alphabet Code: the lettered sheet (zones, squares, corner points), questions by clicking, and a
// code builder that places seven-segment letters by their top-left corner point.
import { arrowGrid, button, h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import teaching from "./teaching.js";

// Where each segment sits in a glyph box (lattice rows and columns); which segments each letter
// has comes from the game itself (the view's `glyphs`, the catalogue's `facts.glyphs`).
const SEGMENT = { a: [0, 1], b: [1, 2], c: [3, 2], d: [4, 1], e: [3, 0], f: [1, 0], g: [2, 1] };
// The same segments as lines in a 1 x 2 box, for the small drawings.
const STROKE = { a: [0, 0, 1, 0], b: [1, 0, 1, 1], c: [1, 1, 1, 2], d: [0, 2, 1, 2], e: [0, 1, 0, 2], f: [0, 0, 0, 1], g: [0, 1, 1, 1] };
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.append(...children);
  return el;
}

// A letter's seven-segment drawing: its segments dark, the others faint.
export function glyph(segments) {
  return svg("svg", { class: "glyph", viewBox: "-0.3 -0.3 1.6 2.6", "aria-hidden": "true" },
    ...Object.entries(STROKE).map(([segment, [x1, y1, x2, y2]]) => svg("line", {
      x1, y1, x2, y2, class: segments.includes(segment) ? "on" : "off", "data-segment": segment })));
}

// Every letter of a set, drawn with its name: what a code is made of.
export function letterChart(glyphs, letters = Object.keys(glyphs)) {
  return h("ul", { class: "letter-chart", id: "letter-chart", "aria-label": t("alphacode.letters_chart") },
    [...letters].map((letter) => h("li", { dataset: { letter } }, glyph(glyphs[letter]), h("b", {}, letter))));
}
// Every action goes through here: a refusal shows beside the builder that sent it (`from`).
function send(ctx, action, from = null) {
  ctx.ui.sentFrom = from;
  ctx.send(action);
}
const legal = (ctx, type) => (ctx.send ? ctx.view.legal_actions.filter((a) => a.type === type) : []);

const kind = (r, c) => (r % 2 && c % 2 ? "zone" : (r + c) % 2 ? (r % 2 ? "vsq" : "hsq") : "corner");

// The squares a letter fills when its drawing's top-left corner point is (row, column).
function letterCells(glyphs, letter, row, column) {
  const cells = [...glyphs[letter]].map((s) => SEGMENT[s]);
  const top = Math.min(...cells.map(([r]) => r)) & ~1;
  const left = Math.min(...cells.map(([, c]) => c)) & ~1;
  return cells.map(([r, c]) => [row + r - top, column + c - left]);
}

function labels(view) {
  const { row_labels: rows, column_labels: columns } = view.sheet;
  return { rows, columns, row: (label) => rows.indexOf(label), column: (label) => columns.indexOf(label) };
}

function inked(view, entries) {
  const at = labels(view);
  const ink = new Map();
  for (const entry of entries ?? []) {
    for (const [r, c] of letterCells(view.glyphs, entry.letter, at.row(entry.row), at.column(entry.column))) ink.set(`${r},${c}`, entry.letter);
  }
  return ink;
}

const KIND_WORDS = { zone: "a11y.alphacode.zone", hsq: "a11y.alphacode.square", vsq: "a11y.alphacode.square", corner: "a11y.alphacode.corner" };

// One sheet: cell(r, c) returns {cls, text, onclick, title, label} for each lattice point. A cell
// with a label but no onclick is read out by that label (an answer); buttons are named by it.
// The keyboard enters a sheet with Tab once and moves between its buttons with the arrow keys.
function sheetGrid(view, cell, id) {
  const { rows, columns } = view.sheet;
  const at = labels(view);
  const children = [h("span", { class: "label", "aria-hidden": "true" })];
  for (let c = 0; c < columns; c++) children.push(h("span", { class: "label", "aria-hidden": "true" }, at.columns[c]));
  for (let r = 0; r < rows; r++) {
    children.push(h("span", { class: "label", "aria-hidden": "true" }, at.rows[r]));
    for (let c = 0; c < columns; c++) {
      const spec = cell(r, c) ?? {};
      const name = t(KIND_WORDS[kind(r, c)], { cell: `${at.rows[r]}${at.columns[c]}` });
      children.push(h(spec.onclick ? "button" : "span", {
        class: `cell ${kind(r, c)} ${spec.cls ?? ""}`, onclick: spec.onclick ?? null, type: spec.onclick ? "button" : null,
        title: spec.title ?? `${at.rows[r]}${at.columns[c]}`, style: spec.style ?? null,
        role: !spec.onclick && spec.label ? "img" : null, "aria-label": spec.label ? t("a11y.alphacode.cell_says", { cell: name, says: spec.label }) : spec.onclick ? name : null,
        dataset: { row: at.rows[r], column: at.columns[c], r, c },
      }, spec.text ?? ""));
    }
  }
  // Narrow tracks (corner points, square edges) and wide ones (zones) share the sheet's width in a
  // 1:2 ratio, and the rows take the same sizes, so zones stay square: every column fits the box,
  // whatever the screen (no sideways scrolling, so nothing to lose across moves). The frame is a
  // size container: 100cqw is its width; the tracks are separated by 1 px gaps.
  const units = Math.ceil(columns / 2) + 2 * Math.floor(columns / 2);
  const unit = `((100cqw - 1.1rem - ${columns}px) / ${units})`;
  const template = (n) => Array.from({ length: n }, (_, i) => (i % 2 ? `calc(2 * ${unit})` : `calc(${unit})`)).join(" ");
  return h("div", { class: "lattice-frame" }, arrowGrid(h("div", {
    class: "lattice", id, style: `grid-template-columns: 1.1rem ${template(columns)}; grid-template-rows: 1.1rem ${template(rows)}`,
  }, children), "button", id));
}

// Whose codes are being cracked: a player's target, or every target for a spectator.
function targets(view) {
  if (view.seat !== null) return view.target === null ? [] : [view.target];
  return view.mode === "duel" ? [0, 1] : [view.creator];
}

// A target's sheet: answers so far, the squares they settle (auto-notes), clickable questions,
// probabilities when hints are on.
function targetSheet(view, ctx, target) {
  const at = labels(view);
  const answers = answersAbout(view, target);
  const asks = new Map([...legal(ctx, "count"), ...legal(ctx, "filled")].map((a) => [`${at.row(a.row)},${at.column(a.column)}`, a]));
  const solved = inked(view, view.codes?.[target]);
  return sheetGrid(view, (r, c) => {
    const key = `${r},${c}`;
    const answer = answers.get(key);
    const ask = asks.get(key);
    const p = ctx.hint?.squares?.[key];
    const settled = answer === undefined && !solved.has(key) ? ctx.auto?.settled?.[key] : undefined; // auto-notes
    const cls = [answer === true || solved.has(key) || settled === true ? "yes" : "", answer === false || settled === false ? "no" : "",
      settled !== undefined ? "settled" : "", ask ? "ask" : ""].join(" ");
    const chance = p !== undefined ? t("alphacode.filled_chance", { percent: Math.round(p * 100) }) : null;
    const deduced = settled === undefined ? null : t(settled ? "alphacode.settled.filled" : "alphacode.settled.empty");
    return {
      cls, text: typeof answer === "number" ? String(answer) : "",
      style: p !== undefined && answer === undefined ? `--p:${p}` : null,
      title: deduced ?? chance,
      label: answerWords(answer) ?? (solved.has(key) ? t("a11y.alphacode.filled")
        : [deduced, ask ? t("a11y.alphacode.ask") : null, ask ? chance : null].filter(Boolean).join(", ") || null),
      onclick: ask ? () => send(ctx, ask) : null,
    };
  }, target === view.target ? "target-sheet" : `sheet-${target}`);
}

// A code being built: pick a letter, click where its top-left corner goes.
function builder(view, ctx, key, type, title) {
  const state = (ctx.ui[key] ??= { letter: view.letters[0], placed: {} });
  const at = labels(view);
  const entries = Object.entries(state.placed).map(([letter, p]) => ({ letter, row: p.row, column: p.column }));
  const ink = inked(view, entries);
  const place = (r, c) => {
    state.placed[state.letter] = { row: at.rows[r & ~1], column: at.columns[c & ~1] };
    ctx.rerender();
  };
  const cellWords = (r, c) => t(ink.has(`${r},${c}`) ? "a11y.alphacode.put_over" : "a11y.alphacode.put",
    { ink: ink.get(`${r},${c}`), letter: state.letter, corner: `${at.rows[r & ~1]}${at.columns[c & ~1]}` });
  return h("div", { class: "builder", id: `${key}-builder` }, h("b", {}, title),
    h("div", { class: "row palette" }, [...view.letters].map((letter) => button([glyph(view.glyphs[letter]), letter], () => { state.letter = letter; ctx.rerender(); },
      { class: `letter${state.letter === letter ? " selected" : ""}${state.placed[letter] ? " used" : ""}`, dataset: { letter },
        "aria-pressed": String(state.letter === letter), "aria-label": state.placed[letter] ? t("a11y.alphacode.placed", { letter }) : letter }))),
    sheetGrid(view, (r, c) => ({ cls: ink.has(`${r},${c}`) ? "ink" : "", onclick: () => place(r, c), label: cellWords(r, c) }), `${key}-sheet`),
    h("div", { class: "row" }, entries.map((e) => button(`${e.letter}@${e.row}${e.column} ✕`, () => { delete state.placed[e.letter]; ctx.rerender(); },
      { class: "placed", "aria-label": t("a11y.alphacode.remove", { letter: e.letter, cell: `${e.row}${e.column}` }) })),
    button(t(type === "code" ? "alphacode.set_code" : "alphacode.declare_count", { count: entries.length }), () => send(ctx, { type, letters: entries }, key),
      { class: "primary", id: `${key}-go`, disabled: entries.length !== 5 })),
    builderError(ctx, key));
}

// The server's answer to this builder's last code or declaration, when it refused it: shown here,
// beside the letters, instead of at the foot of the page.
function builderError(ctx, key) {
  if (!ctx.error || ctx.ui.sentFrom !== key) return null;
  ctx.errorShown = true;
  return h("p", { class: "error builder-error", id: `${key}-error`, role: "alert" }, ctx.error);
}

// "Declare": once the public answers settle the code (a legal declaration), or once the seat's own
// hints leave a single candidate, a call to action with that code.
function declareCall(view, ctx) {
  const settled = legal(ctx, "declare")[0];
  const hinted = ctx.hint?.candidates === 1 && ctx.hint.code && ctx.send && view.to_move.includes(view.seat)
    && ["play", "final", "cascade"].includes(view.phase) ? { type: "declare", letters: ctx.hint.code } : null;
  const action = settled ?? hinted;
  if (!action) return null;
  const code = action.letters.map((e) => `${e.letter}@${e.row}${e.column}`).join(" ");
  return h("div", { class: "declare-call", id: "alphacode-declare-call", role: "status" },
    h("b", {}, t(settled ? "alphacode.declare.settled" : "alphacode.declare.hinted")), " ",
    button(t(settled ? "alphacode.declare_settled" : "alphacode.declare.go", { code }), () => send(ctx, action, "declare"),
      { class: "primary settled", dataset: { declare: "settled" } }));
}

// An answer in words: a zone's count of filled sides, a square filled or empty.
function answerWords(answer) {
  if (typeof answer === "number") return t("a11y.alphacode.sides_filled", { count: answer });
  return answer === true ? t("a11y.alphacode.filled") : answer === false ? t("a11y.alphacode.empty") : null;
}

function answersAbout(view, target) {
  const at = labels(view);
  return new Map(view.questions.filter((q) => q.target === target)
    .map((q) => [`${at.row(q.question.row)},${at.column(q.question.column)}`, q.answer]));
}

// Your code, with the questions asked about it so far outlined (zones show their answer).
function ownSheet(view) {
  const ink = inked(view, view.code);
  const asked = answersAbout(view, view.seat);
  return h("div", {}, h("b", {}, t("alphacode.own_code"), " ", view.code.map((e) => e.letter).join(" ")),
    sheetGrid(view, (r, c) => {
      const answer = asked.get(`${r},${c}`);
      const words = [ink.has(`${r},${c}`) ? t("a11y.alphacode.filled") : null, typeof answer === "number" ? answerWords(answer) : null,
        answer !== undefined ? t("a11y.alphacode.asked") : null].filter(Boolean).join(", ");
      return { cls: `${ink.has(`${r},${c}`) ? "ink" : ""}${answer !== undefined ? " asked" : ""}`,
        text: typeof answer === "number" ? String(answer) : "", label: words || null };
    }, "own-sheet"));
}

function status(view, ctx) {
  const me = view.seat;
  if (view.phase === "code") return view.coded?.[me] ? t("alphacode.prompt.waiting_codes") : t("alphacode.prompt.make_code");
  if (!view.to_move.includes(me)) return null;
  if (view.phase === "final") return t("alphacode.prompt.final");
  if (view.phase === "cascade") return t("alphacode.prompt.cascade");
  if (view.phase === "handicap") return t("alphacode.prompt.handicap", { count: view.handicap_left });
  return t("alphacode.prompt.ask");
}

function board(view, ctx) {
  const me = view.seat;
  const making = legal(ctx, "random_code").length > 0;
  const declaring = ctx.send && ["play", "final", "cascade"].includes(view.phase) && view.to_move.includes(me);
  const misses = me !== null ? view.misses[me] : 0;
  return h("div", { class: "alphacode" },
    h("div", { class: "muted" }, [view.mode === "duel" ? t("alphacode.duel") : t("alphacode.creator", { name: ctx.name(view.creator) }),
      t("alphacode.round", { round: view.round }), t(`alphacode.phase.${view.phase}`)].join(" · "),
      misses ? ` · ${t("alphacode.misses", { count: misses })}` : ""),
    status(view, ctx) ? h("p", { class: "prompt", id: "alphacode-status" }, status(view, ctx)) : null,
    h("div", { class: "sheets" },
      targets(view).map((target) => h("div", {}, h("b", {}, view.mode === "duel" ? t("alphacode.code_of", { name: ctx.name(target) }) : t("alphacode.the_code")),
        targetSheet(view, ctx, target))),
      view.code ? ownSheet(view) : null),
    making ? h("div", { class: "controls" }, button(t("alphacode.random_code"), () => send(ctx, { type: "random_code" }), { id: "alphacode-random", class: "primary" }),
      h("div", { class: "letters-help" }, h("p", { class: "muted" }, t("alphacode.letters_help")), letterChart(view.glyphs, view.letters)),
      builder(view, ctx, "code", "code", t("alphacode.build_own"))) : null,
    declaring ? h("details", { class: "declare", open: view.phase !== "play" || ctx.ui.declareOpen,
      ontoggle: (e) => { if (e.target.open !== Boolean(ctx.ui.declareOpen)) { ctx.ui.declareOpen = e.target.open; ctx.rerender(); } } },
      h("summary", {}, t("alphacode.declare_title")), builder(view, ctx, "declare", "declare", t("alphacode.your_declaration"))) : null,
    declareCall(view, ctx),
    legal(ctx, "pass").length ? button(t("alphacode.pass"), () => send(ctx, { type: "pass" }), { id: "alphacode-pass" }) : null);
}

function notes(view, ctx) {
  if (view.target === null) return null;
  const about = view.questions.filter((q) => q.target === view.target);
  const text = (q) => t(q.question.type === "count" ? "alphacode.answer.zone" : "alphacode.answer.square", {
    at: `${q.question.row}${q.question.column}`,
    answer: q.answer === true ? t("alphacode.filled") : q.answer === false ? t("alphacode.empty") : q.answer });
  return h("div", {},
    ctx.hint ? h("p", { id: "alphacode-candidates" }, t("alphacode.candidates", { count: ctx.hint.candidates })) : null,
    about.length ? h("ul", { class: "answers-list", tabindex: 0 }, about.map((q) => h("li", {}, text(q)))) : h("p", { class: "muted" }, t("alphacode.no_answers")));
}

function describe(event, ctx) {
  const who = ctx.name(event.seat);
  switch (event.type) {
    case "code_made": return t("alphacode.event.code_made", { name: who });
    case "start": return event.handicap
      ? t("alphacode.event.start_handicap", { first_seat: ctx.name(0), count: event.handicap, second_seat: ctx.name(1), name: ctx.name(event.first) })
      : t("alphacode.event.start", { name: ctx.name(event.first) });
    case "answer": {
      const q = event.question;
      return q.type === "count" ? t("alphacode.event.zone", { name: who, at: `${q.row}${q.column}`, count: event.answer })
        : t(event.answer ? "alphacode.event.square_filled" : "alphacode.event.square_empty", { name: who, at: `${q.row}${q.column}` });
    }
    case "declared": return t(event.correct ? "alphacode.event.declared_right" : "alphacode.event.declared_wrong",
      { name: who, code: event.letters ? event.letters.map((e) => `${e.letter}@${e.row}${e.column}`).join(" ") : "" });
    case "passed": return t("alphacode.event.passed", { name: who });
    case "final_chance": return t("alphacode.event.final_chance", { name: ctx.name(event.seat) });
    case "last_submissions": return t("alphacode.event.last_submissions");
    case "eliminated": return t("alphacode.event.eliminated", { name: who });
    case "draw": return t("alphacode.event.draw");
    case "new_round": return t("alphacode.event.new_round", { round: event.round });
    case "game_over": return t("alphacode.event.game_over");
    default: return null;
  }
}

// The end summary's extra lines: the codes, and how many questions each solver asked (its turns).
function summary(view, ctx) {
  const codes = (view.codes ?? []).map((code, seat) => (code
    ? t("alphacode.end.code", { name: ctx.name(seat), letters: code.map((e) => `${e.letter}@${e.row}${e.column}`).join(" ") }) : null));
  const asked = (view.result.questions ?? []).map((count, seat) => (count ? t("alphacode.end.questions", { name: ctx.name(seat), count }) : null));
  return [...codes, ...asked].filter(Boolean);
}

// An older hint still fits within its round (a new round is a new code).
function hintFits(hint, view) {
  return hint.round === view.round;
}

// The how-to page's chart: both letter sets, from the game's catalogue facts.
function chart(facts) {
  if (!facts.glyphs) return null;
  const [base, all] = [facts.letter_sets["10"], facts.letter_sets["20"]];
  return h("div", { class: "letter-sets" }, h("p", {}, t("alphacode.letters_help")),
    h("h3", {}, t("alphacode.letter_set.base")), letterChart(facts.glyphs, base),
    h("h3", {}, t("alphacode.letter_set.more")), letterChart(facts.glyphs, all.slice(base.length)));
}

export default {
  covers: new Set(["random_code", "code", "count", "filled", "declare", "pass"]),
  board, notes, describe, summary, chart, hintFits,
  teaching,
};

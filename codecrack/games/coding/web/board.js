// The Coding: code cards, red data cards, green/red hack cards, and the decode/slap/answer controls.
import { button, h, toMoveMark } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { sheetLine, sheetTable } from "/static/js/sheet.js";
import teaching from "./teaching.js";

const LETTERS = ["A", "B", "C", "D", "E", "F"];
const DIGITS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const position = (card) => t(`coding.position.${card}`);
const legal = (ctx, type) => (ctx.send ? ctx.view.legal_actions.filter((a) => a.type === type) : []);

// Green (true) and red (false) hack cards also carry ✓ and ✗: colour is never the only signal.
const VERDICT = { offer: "", green: "✓", red: "✗" };

function hackCard(card, { green = null, onclick = null, selected = false } = {}) {
  const state = green === null ? "offer" : green ? "green" : "red";
  const claim = t("coding.hack_title", { position: position(card.position), values: card.values.join(", ") });
  return h(onclick ? "button" : "span", {
    class: `hack ${state}${selected ? " selected" : ""}`, onclick, type: onclick ? "button" : null,
    dataset: { card: card.id }, title: claim, "aria-label": t(`a11y.coding.hack.${state}`, { claim }),
    "aria-pressed": selected ? "true" : null, role: onclick ? null : "img",
  }, h("small", {}, position(card.position), VERDICT[state] ? h("span", { class: "verdict" }, ` ${VERDICT[state]}`) : null),
  h("b", {}, card.values.join(" ")));
}

function codeCards(view, sheet, ctx) {
  const own = sheet.seat === view.seat ? view.own : null;
  const known = sheet.code ? { letter: sheet.code[0], x1: Number(sheet.code[1]), x2: Number(sheet.code[2]) } : {};
  return h("div", { class: "code-cards" }, ["letter", "x1", "x2"].map((card) => {
    const revealed = sheet.revealed[card];
    const value = revealed ?? known[card] ?? own?.[card] ?? null;
    const words = value === null ? "a11y.coding.code_card.unknown" : revealed !== null ? "a11y.coding.code_card.up" : "a11y.coding.code_card.known";
    return h("span", { class: `code-card${revealed !== null ? " up" : ""}${value === null ? " back" : ""}`,
      title: position(card), role: "img", "aria-label": t(words, { position: position(card), value }) }, value === null ? "?" : String(value));
  }));
}

function playerPanel(view, sheet, ctx) {
  const seat = sheet.seat;
  const gives = ctx.ui.hack !== undefined ? legal(ctx, "give").filter((a) => a.card === ctx.ui.hack && a.to === seat) : [];
  return h("div", { class: `coding-player${sheet.out ? " out" : ""}${seat === view.seat ? " own" : ""}`, dataset: { seat } },
    h("div", { class: "row-name" }, view.to_move.includes(seat) ? toMoveMark() : "", ctx.name(seat),
      seat === view.seat ? ` ${t("coding.you")}` : "", view.first_one === seat ? ` · ${t("coding.first_one")}` : "",
      sheet.out ? ` · ${t("coding.out")}` : "",
      sheet.wrong_decodes ? h("span", { class: "muted" }, ` · ${t("coding.wrong_decodes", { count: sheet.wrong_decodes })}`) : null),
    h("div", { class: "row" }, codeCards(view, sheet, ctx),
      gives.map((a) => button(t("coding.give_to", { name: ctx.name(seat) }), () => { ctx.ui.hack = undefined; ctx.send(a); },
        { class: "primary give", dataset: { to: seat } }))),
    h("div", { class: "row cards" },
      sheet.data.map((d) => h("span", { class: "data", title: t("coding.data_title"), role: "img", "aria-label": t("a11y.coding.data_card", { card: d }) }, d)),
      sheet.cannot.map((offered) => h("span", { class: "data cannot", title: t("coding.cannot_title", { ranges: offered.join(", ") }) },
        t("coding.cannot_card"))),
      sheet.hacks.map((hack) => hackCard(hack.card, { green: hack.green }))));
}

function stacks(view, ctx) {
  const takes = legal(ctx, "take");
  return h("div", { class: "row stacks" }, Object.entries(view.data_stacks).map(([type, left]) => {
    const take = takes.find((a) => a.card === type);
    return h(take ? "button" : "span", { class: `data stack${left ? "" : " empty"}`, type: take ? "button" : null,
      onclick: take ? () => ctx.send(take) : null, dataset: { type } }, type, h("small", {}, ` ×${left}`));
  }), cannotButton(view, ctx));
}

// With no data card left and no hack card to pass, HACK is only "cannot take": a pass.
function cannotButton(view, ctx) {
  if (!legal(ctx, "cannot").length) return null;
  const nothingLeft = Object.values(view.data_stacks).every((left) => !left);
  return button(nothingLeft ? t("coding.cannot_nothing") : t("coding.cannot"), () => ctx.send({ type: "cannot" }), { id: "coding-cannot" });
}

function hackRow(view, ctx) {
  const gives = legal(ctx, "give");
  return h("div", { class: "row hack-row" }, view.hack_row.map((card) => {
    const usable = gives.some((a) => a.card === card.id);
    return hackCard(card, {
      onclick: usable ? () => { ctx.ui.hack = card.id; ctx.rerender(); document.querySelector("button.give")?.focus(); } : null,
      selected: ctx.ui.hack === card.id,
    });
  }), h("span", { class: "muted" }, t("coding.hack_deck", { count: view.hack_deck })));
}

function codePicker(ctx, key, targets) {
  const pick = (ctx.ui[key] ??= { target: targets[0], letter: "A", x1: 0, x2: 1 });
  if (!targets.includes(pick.target)) pick.target = targets[0];
  const select = (field, values, label) => h("select", { name: `${key}-${field}`, "aria-label": label,
    onchange: (e) => { pick[field] = field === "letter" ? e.target.value : Number(e.target.value); } },
  values.map((v) => h("option", { value: v, selected: v === pick[field] }, field === "target" ? ctx.name(v) : v)));
  return { pick, select };
}

function decodeForm(view, ctx) {
  const targets = [...new Set(legal(ctx, "decode").map((a) => a.target))];
  if (!targets.length) return null;
  const { pick, select } = codePicker(ctx, "decode", targets);
  return h("div", { class: "row decode", id: "coding-decode" }, h("b", {}, t("coding.decode")),
    select("target", targets, t("coding.decode_target")), select("letter", LETTERS, position("letter")),
    select("x1", DIGITS, position("x1")), select("x2", DIGITS, position("x2")),
    button(t("coding.decode"), () => ctx.send({ type: "decode", target: pick.target, code: `${pick.letter}${pick.x1}${pick.x2}` }),
      { class: "primary", id: "coding-decode-go" }));
}

function answerForm(view, ctx) {
  const answers = legal(ctx, "answer");
  if (!answers.length) return null;
  const targets = Object.keys(answers[0].codes).map(Number);
  const picks = targets.map((target) => codePicker(ctx, `answer-${target}`, [target]));
  return h("div", { class: "answers", id: "coding-answers" }, h("b", {}, t("coding.answers_title")),
    targets.map((target, i) => h("div", { class: "row" }, h("span", {}, ctx.name(target)),
      picks[i].select("letter", LETTERS, position("letter")), picks[i].select("x1", DIGITS, position("x1")),
      picks[i].select("x2", DIGITS, position("x2")))),
    button(t("coding.answers_go"), () => ctx.send({ type: "answer", codes: Object.fromEntries(targets.map((target, i) =>
      [String(target), `${picks[i].pick.letter}${picks[i].pick.x1}${picks[i].pick.x2}`])) }), { class: "primary", id: "coding-answer-go" }));
}

// One line saying what to do now, for every step in which this seat may act (coding.prompt.STEP).
const STEPS_WITH_PROMPTS = new Set(["order", "data", "choose", "penalty", "open", "answer", "stalemate", "answers"]);

function stepPrompt(view, ctx) {
  if (!ctx.send || !view.to_move.includes(view.seat)) return null;
  if (view.step === "give") return ctx.ui.hack === undefined ? t("coding.prompt.give") : t("coding.prompt.give_to");
  if (view.step === "open" && view.passed.includes(view.seat)) return t("coding.prompt.passed");
  if (view.step === "choose" && legal(ctx, "stop").length) return t("coding.prompt.correct");
  return STEPS_WITH_PROMPTS.has(view.step) ? t(`coding.prompt.${view.step}`) : null;
}

function controls(view, ctx) {
  const parts = [];
  const prompt = stepPrompt(view, ctx);
  if (prompt) parts.push(h("p", { class: "prompt", id: "coding-prompt" }, prompt));
  for (const a of legal(ctx, "order")) {
    parts.push(button(t("coding.order", { x1: a.x1, x2: a.x2 }), () => ctx.send(a), { class: "order", dataset: { x1: a.x1 } }));
  }
  if (legal(ctx, "slap").length) parts.push(button(t("coding.slap"), () => ctx.send({ type: "slap" }), { class: "slap", id: "coding-slap" }));
  if (legal(ctx, "pass").length) parts.push(button(t("coding.pass"), () => ctx.send({ type: "pass" }), { id: "coding-pass" }));
  for (const a of legal(ctx, "reveal")) {
    parts.push(button(t("coding.reveal", { position: position(a.card) }), () => ctx.send(a), { class: "reveal", dataset: { card: a.card } }));
  }
  if (legal(ctx, "stop").length) parts.push(button(t("coding.stop"), () => ctx.send({ type: "stop" }), { id: "coding-stop" }));
  parts.push(decodeForm(view, ctx), answerForm(view, ctx));
  return h("div", { class: "controls" }, parts);
}

function ownLine(view) {
  if (!view.own) return null;
  const code = view.own.code ?? t("coding.own_unordered", { letter: view.own.letter, digits: view.own.digits.join(", ") });
  return h("div", { class: "own-code" }, t("coding.own_code"), " ", h("b", {}, code));
}

function board(view, ctx) {
  const phase = view.phase === "hacking" ? t("coding.hacking_round", { round: view.round, rounds: view.rounds })
    : t(`coding.phase.${view.phase}`);
  const onTable = [...(view.table?.letters ?? []), ...(view.table?.digits ?? [])];
  return h("div", { class: "coding" },
    h("div", { class: "muted" }, `${t(`lobby.choice.${view.options.mode}`)} · ${phase}`,
      onTable.length ? ` · ${t("coding.face_up_on_table", { cards: onTable.join(" ") })}` : "",
      view.passes_in_row ? ` · ${t("coding.passes_in_row", { count: view.passes_in_row })}` : ""),
    ownLine(view),
    view.phase === "hacking" || view.phase === "decoding" ? [stacks(view, ctx), hackRow(view, ctx)] : null,
    h("div", { class: "players" }, view.sheets.map((sheet) => playerPanel(view, sheet, ctx))),
    controls(view, ctx));
}

function notes(view, ctx) {
  const tables = view.sheets.filter((s) => s.seat !== view.seat && !s.code).map((sheet) => {
    const odds = ctx.hint?.seats?.[sheet.seat];
    const known = ctx.auto?.seats?.[sheet.seat]?.out; // what auto-notes cross out
    const line = (card, values) => sheetLine(ctx, `${sheet.seat}:${card}`, position(card), values,
      { odds: odds?.[card], out: known ? new Set(known[card]) : null });
    return h("div", { class: "sheet-pair" },
      sheetTable(ctx, [line("letter", LETTERS)], { caption: ctx.name(sheet.seat), values: LETTERS }),
      sheetTable(ctx, [line("x1", DIGITS), line("x2", DIGITS)], { values: DIGITS }));
  });
  return tables.length ? h("div", {}, tables) : h("p", { class: "muted" }, t("coding.sheet.all_known"));
}

function describe(event, ctx) {
  const who = ctx.name(event.seat);
  const card = (c) => `${position(c.position)} {${c.values.join(",")}}`;
  switch (event.type) {
    case "ordered": return t("coding.event.ordered", { name: who });
    case "round": return t("coding.event.round", { round: event.round, name: ctx.name(event.first_one) });
    case "took": return t("coding.event.took", { name: who, card: event.card });
    case "cannot": return event.offered.length
      ? t("coding.event.cannot", { name: who, offered: event.offered.join(", ") })
      : t("coding.event.nothing_to_hack", { name: who });
    case "hacked": return t(event.green ? "coding.event.hacked_green" : "coding.event.hacked_red",
      { name: who, card: card(event.card), to: ctx.name(event.to) });
    case "no_hack_cards": return t("coding.event.no_hack_cards", { name: who });
    case "phase": return t("coding.event.phase", { phase: t(`coding.phase.${event.phase}`) });
    case "decode": return t(event.correct ? "coding.event.decode_right" : "coding.event.decode_wrong",
      { name: who, target: ctx.name(event.target), code: event.code });
    case "revealed": return t("coding.event.revealed", { name: who, position: position(event.card), value: event.value });
    case "out": return event.code ? t("coding.event.out_code", { name: who, code: event.code }) : t("coding.event.out", { name: who });
    case "stop": return t("coding.event.stop", { name: who });
    case "slap": return t("coding.event.slap", { name: who });
    case "pass": return t("coding.event.pass", { name: who });
    case "timeout": return t("coding.event.timeout", { name: who });
    case "dealt": return t("coding.event.dealt", { cards: [...event.letters, ...event.digits].join(" ") });
    case "stalemate_reveal": return t("coding.event.stalemate");
    case "chose_reveal": return t("coding.event.chose_reveal", { name: who });
    case "answered": return t("coding.event.answered", { name: who });
    case "over": return t("coding.event.over");
    default: return null;
  }
}

// Space slaps; Escape puts back the hack card picked to pass.
function key(event, ctx) {
  if (event.key === "Escape" && ctx.ui.hack !== undefined) {
    const card = ctx.ui.hack;
    ctx.ui.hack = undefined;
    ctx.rerender();
    document.querySelector(`.hack-row [data-card="${CSS.escape(String(card))}"]`)?.focus();
  }
  if (event.code === "Space" && legal(ctx, "slap").length) {
    event.preventDefault();
    ctx.send({ type: "slap" });
  }
}

// The end summary's extra lines: every code, as the game ended.
function summary(view, ctx) {
  return (view.result.codes ?? []).map((code, seat) => t("coding.end.code", { name: ctx.name(seat), code }));
}

export default {
  covers: new Set(["order", "take", "cannot", "give", "decode", "stop", "reveal", "slap", "pass", "answer"]),
  board, notes, describe, key, summary,
  teaching,
};

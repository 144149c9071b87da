// The Coding: code cards, red data cards, green/red hack cards, and the decode/slap/answer controls.
import { button, h } from "../dom.js";
import { t } from "../i18n.js";
import { sheetLine, sheetTable } from "../sheet.js";

const LETTERS = ["A", "B", "C", "D", "E", "F"];
const DIGITS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const POSITION = { letter: "Letter", x1: "X1", x2: "X2" };
const legal = (ctx, type) => (ctx.send ? ctx.view.legal_actions.filter((a) => a.type === type) : []);

function hackCard(card, { green = null, onclick = null, selected = false } = {}) {
  const state = green === null ? "offer" : green ? "green" : "red";
  return h(onclick ? "button" : "span", {
    class: `hack ${state}${selected ? " selected" : ""}`, onclick, type: onclick ? "button" : null,
    dataset: { card: card.id }, title: `${POSITION[card.position]} in {${card.values.join(", ")}}`,
  }, h("small", {}, POSITION[card.position]), h("b", {}, card.values.join(" ")));
}

function codeCards(view, sheet, ctx) {
  const own = sheet.seat === view.seat ? view.own : null;
  const known = sheet.code ? { letter: sheet.code[0], x1: Number(sheet.code[1]), x2: Number(sheet.code[2]) } : {};
  return h("div", { class: "code-cards" }, ["letter", "x1", "x2"].map((position) => {
    const revealed = sheet.revealed[position];
    const value = revealed ?? known[position] ?? own?.[position] ?? null;
    return h("span", { class: `code-card${revealed !== null ? " up" : ""}${value === null ? " back" : ""}`,
      title: POSITION[position] }, value === null ? "?" : String(value));
  }));
}

function playerPanel(view, sheet, ctx) {
  const seat = sheet.seat;
  const gives = ctx.ui.hack !== undefined ? legal(ctx, "give").filter((a) => a.card === ctx.ui.hack && a.to === seat) : [];
  return h("div", { class: `coding-player${sheet.out ? " out" : ""}${seat === view.seat ? " own" : ""}`, dataset: { seat } },
    h("div", { class: "row-name" }, view.to_move.includes(seat) ? "▶ " : "", ctx.name(seat),
      seat === view.seat ? " (you)" : "", view.first_one === seat ? " · The First One" : "", sheet.out ? " · out" : "",
      sheet.wrong_decodes ? h("span", { class: "muted" }, ` · ${sheet.wrong_decodes} wrong`) : null),
    h("div", { class: "row" }, codeCards(view, sheet, ctx),
      gives.map((a) => button(`Pass the card to ${ctx.name(seat)}`, () => { ctx.ui.hack = undefined; ctx.send(a); },
        { class: "primary give", dataset: { to: seat } }))),
    h("div", { class: "row cards" },
      sheet.data.map((d) => h("span", { class: "data", title: "not in this range" }, d)),
      sheet.cannot.map((offered) => h("span", { class: "data cannot", title: `cannot take: in ${offered.join(", ")}` }, "cannot")),
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
  return button(nothingLeft ? "Pass (nothing to hack)" : "Cannot take", () => ctx.send({ type: "cannot" }), { id: "coding-cannot" });
}

function hackRow(view, ctx) {
  const gives = legal(ctx, "give");
  return h("div", { class: "row hack-row" }, view.hack_row.map((card) => {
    const usable = gives.some((a) => a.card === card.id);
    return hackCard(card, {
      onclick: usable ? () => { ctx.ui.hack = card.id; ctx.rerender(); } : null,
      selected: ctx.ui.hack === card.id,
    });
  }), h("span", { class: "muted" }, `${view.hack_deck} in the deck`));
}

function codePicker(ctx, key, targets) {
  const pick = (ctx.ui[key] ??= { target: targets[0], letter: "A", x1: 0, x2: 1 });
  if (!targets.includes(pick.target)) pick.target = targets[0];
  const select = (field, values, label) => h("select", { name: `${key}-${field}`, "aria-label": label,
    onchange: (e) => { pick[field] = field === "letter" ? e.target.value : Number(e.target.value); } },
  values.map((v) => h("option", { value: v, selected: v === pick[field] }, label === "target" ? ctx.name(v) : v)));
  return { pick, select };
}

function decodeForm(view, ctx) {
  const targets = [...new Set(legal(ctx, "decode").map((a) => a.target))];
  if (!targets.length) return null;
  const { pick, select } = codePicker(ctx, "decode", targets);
  return h("div", { class: "row decode", id: "coding-decode" }, h("b", {}, "Decode"), select("target", targets, "target"),
    select("letter", LETTERS, "letter"), select("x1", DIGITS, "X1"), select("x2", DIGITS, "X2"),
    button("Decode", () => ctx.send({ type: "decode", target: pick.target, code: `${pick.letter}${pick.x1}${pick.x2}` }),
      { class: "primary", id: "coding-decode-go" }));
}

function answerForm(view, ctx) {
  const answers = legal(ctx, "answer");
  if (!answers.length) return null;
  const targets = Object.keys(answers[0].codes).map(Number);
  const picks = targets.map((t) => codePicker(ctx, `answer-${t}`, [t]));
  return h("div", { class: "answers", id: "coding-answers" }, h("b", {}, "Write a code for every opponent"),
    targets.map((t, i) => h("div", { class: "row" }, h("span", {}, ctx.name(t)),
      picks[i].select("letter", LETTERS, "letter"), picks[i].select("x1", DIGITS, "X1"), picks[i].select("x2", DIGITS, "X2"))),
    button("Reveal my answers", () => ctx.send({ type: "answer", codes: Object.fromEntries(targets.map((t, i) =>
      [String(t), `${picks[i].pick.letter}${picks[i].pick.x1}${picks[i].pick.x2}`])) }), { class: "primary", id: "coding-answer-go" }));
}

// One line saying what to do now, for every step in which this seat may act.
const STEP_PROMPTS = {
  order: "Order your code: choose which of your digits is X1 and which is X2.",
  data: "Take a data card your code is not in, or say you cannot take one.",
  choose: "Hack (take a data card or pass a hack card) or decode an opponent's code.",
  penalty: "Wrong decode: reveal one of your code cards.",
  open: "Slap The First One (space) when you can decode a code, or pass.",
  answer: "You slapped: decode a code before the answer window closes.",
  stalemate: "Stalemate: reveal one of your number cards.",
  answers: "Write a code for every opponent, then reveal your answers.",
};
const AFTER_A_CORRECT_DECODE = "Correct! Decode another code, or stop.";
const PASSED_AND_WAITING = "You are waiting; you may still slap.";

function stepPrompt(view, ctx) {
  if (!ctx.send || !view.to_move.includes(view.seat)) return null;
  if (view.step === "give") {
    return ctx.ui.hack === undefined ? "Pick a hack card from the row, then a player to pass it to." : "Now choose who receives it.";
  }
  if (view.step === "open" && view.passed.includes(view.seat)) return PASSED_AND_WAITING;
  if (view.step === "choose" && legal(ctx, "stop").length) return AFTER_A_CORRECT_DECODE;
  return STEP_PROMPTS[view.step] ?? null;
}

function controls(view, ctx) {
  const parts = [];
  const prompt = stepPrompt(view, ctx);
  if (prompt) parts.push(h("p", { class: "prompt", id: "coding-prompt" }, prompt));
  for (const a of legal(ctx, "order")) {
    parts.push(button(`X1 = ${a.x1}, X2 = ${a.x2}`, () => ctx.send(a), { class: "order", dataset: { x1: a.x1 } }));
  }
  if (legal(ctx, "slap").length) parts.push(button("SLAP! (space)", () => ctx.send({ type: "slap" }), { class: "slap", id: "coding-slap" }));
  if (legal(ctx, "pass").length) parts.push(button("Pass", () => ctx.send({ type: "pass" }), { id: "coding-pass" }));
  for (const a of legal(ctx, "reveal")) {
    parts.push(button(`Reveal my ${POSITION[a.card]}`, () => ctx.send(a), { class: "reveal", dataset: { card: a.card } }));
  }
  if (legal(ctx, "stop").length) parts.push(button("Stop", () => ctx.send({ type: "stop" }), { id: "coding-stop" }));
  parts.push(decodeForm(view, ctx), answerForm(view, ctx));
  return h("div", { class: "controls" }, parts);
}

function ownLine(view) {
  if (!view.own) return null;
  const code = view.own.code ?? `${view.own.letter} + ${view.own.digits.join(", ")} (order them)`;
  return h("div", { class: "own-code" }, "Your code: ", h("b", {}, code));
}

function board(view, ctx) {
  const phase = view.phase === "hacking" ? `hacking round ${view.round} of ${view.rounds}` : view.phase;
  const onTable = [...(view.table?.letters ?? []), ...(view.table?.digits ?? [])];
  return h("div", { class: "coding" },
    h("div", { class: "muted" }, `${view.options.mode} · ${phase}`,
      onTable.length ? ` · face up on the table: ${onTable.join(" ")}` : "",
      view.passes_in_row ? ` · passes in a row: ${view.passes_in_row}` : ""),
    ownLine(view),
    view.phase === "hacking" || view.phase === "decoding" ? [stacks(view, ctx), hackRow(view, ctx)] : null,
    h("div", { class: "players" }, view.sheets.map((sheet) => playerPanel(view, sheet, ctx))),
    controls(view, ctx));
}

function notes(view, ctx) {
  const tables = view.sheets.filter((s) => s.seat !== view.seat && !s.code).map((sheet) => {
    const odds = ctx.hint?.seats?.[sheet.seat];
    return h("div", { class: "sheet-pair" },
      sheetTable(ctx, [sheetLine(ctx, `${sheet.seat}:letter`, "Letter", LETTERS, { odds: odds?.letter })],
        { caption: ctx.name(sheet.seat), values: LETTERS }),
      sheetTable(ctx, [sheetLine(ctx, `${sheet.seat}:x1`, "X1", DIGITS, { odds: odds?.x1 }),
        sheetLine(ctx, `${sheet.seat}:x2`, "X2", DIGITS, { odds: odds?.x2 })], { values: DIGITS }));
  });
  return tables.length ? h("div", {}, tables) : h("p", { class: "muted" }, "Every code is known.");
}

function describe(event, ctx) {
  const who = ctx.name(event.seat);
  const card = (c) => `${POSITION[c.position]} {${c.values.join(",")}}`;
  switch (event.type) {
    case "ordered": return `${who} has ordered their code.`;
    case "round": return `Hacking round ${event.round}: ${ctx.name(event.first_one)} holds The First One.`;
    case "took": return `${who} takes data card ${event.card}.`;
    case "cannot": return event.offered.length
      ? `${who} cannot take a data card (on offer: ${event.offered.join(", ")}).`
      : `${who} has nothing to hack and passes.`;
    case "hacked": return `${who} passes ${card(event.card)} to ${ctx.name(event.to)}: ${event.green ? "green" : "red"}.`;
    case "no_hack_cards": return `No hack card left for ${who}.`;
    case "phase": return `Next phase: ${event.phase}.`;
    case "decode": return `${who} decodes ${ctx.name(event.target)} as ${event.code}: ${event.correct ? "correct!" : "wrong."}`;
    case "revealed": return `${who} reveals ${POSITION[event.card] ?? event.card} = ${event.value}.`;
    case "out": return `${who} is out${event.code ? ` (code ${event.code})` : ""}.`;
    case "stop": return `${who} stops.`;
    case "slap": return `${who} slaps The First One!`;
    case "pass": return `${who} passes.`;
    case "timeout": return `${who} hesitated too long.`;
    case "dealt": return `Dealt face up: ${[...event.letters, ...event.digits].join(" ")}.`;
    case "stalemate_reveal": return "Stalemate: everyone reveals a number card.";
    case "chose_reveal": return `${who} has chosen a card to reveal.`;
    case "answered": return `${who} has written answers.`;
    case "over": return `Game over (${event.reason ?? ""}).`;
    default: return null;
  }
}

function key(event, ctx) {
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
};

// Coda: rows of black and white tiles drawn in CSS. Backs show the colour; values show where known.
import { button, h } from "../dom.js";
import { t } from "../i18n.js";
import { sheetLine, sheetTable } from "../sheet.js";

const VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const COLORS = ["black", "white"];
const show = (value) => (value === "-" ? "–" : String(value));
const mine = (ctx, type) => (ctx.send ? ctx.view.legal_actions.filter((a) => a.type === type) : []);

function tileEl(tile, { own = false, landed = false, onclick = null, selected = false, label = "", unveiled = false } = {}) {
  const known = tile.value !== null && tile.value !== undefined;
  const classes = ["tile", tile.color, tile.revealed ? "up" : "down", known ? "known" : "back",
    own && !tile.revealed ? "own" : "", landed ? "landed" : "", onclick ? "pick" : "", selected ? "selected" : "",
    unveiled && !tile.revealed ? "unveiled" : ""];
  return h(onclick ? "button" : "span", {
    class: classes.filter(Boolean).join(" "), onclick, type: onclick ? "button" : null,
    title: label, dataset: { tile: tile.id, color: tile.color },
  }, known ? show(tile.value) : "");
}

function lastLanding(view) {
  const landed = {};
  for (const event of view.history) if (event.type === "insert") landed[event.seat] = event.tile;
  return landed;
}

// Where a numbered drawn tile will land in the row, when there is one place only: after every
// smaller numbered tile and before every larger one. Next to a dash you choose the side later.
function landingIndex(row, drawn) {
  if (!drawn || drawn.value === null || drawn.value === "-" || row.some((t) => t.value === null)) return null;
  const key = (t) => t.value * 2 + (t.color === "white" ? 1 : 0);
  let low = 0;
  let high = row.length;
  row.forEach((tile, i) => {
    if (tile.value === "-") return;
    if (key(tile) < key(drawn)) low = i + 1;
    else if (high === row.length) high = i;
  });
  return low === high ? low : null;
}

// The dashes game's setup: the opening dashes you have put in so far (sent with "ready").
function arranged(view, ctx) {
  const needed = view.phase === "arrange" && ctx.send ? (view.unplaced ?? []) : [];
  if (!needed.length) {
    ctx.ui.dashes = [];
    return { needed, chosen: [], row: view.rows[view.seat] ?? [] };
  }
  const chosen = ctx.ui.dashes ?? (ctx.ui.dashes = []);
  const row = [...(view.rows[view.seat] ?? [])];
  chosen.forEach((index, n) => row.splice(index, 0, { id: `dash-${n}`, color: needed[n].color, revealed: false, value: "-" }));
  return { needed, chosen, row };
}

function seatOrder(view) {
  const seats = [...Array(view.players).keys()];
  if (view.seat === null) return seats;
  return [...seats.slice(view.seat + 1), ...seats.slice(0, view.seat), view.seat];
}

function rowEl(view, ctx, seat, landed) {
  const own = seat === view.seat;
  const arranging = own ? arranged(view, ctx) : null;
  const row = arranging ? arranging.row : (view.rows[seat] ?? []);
  const guessing = mine(ctx, "guess").some((a) => a.target === seat);
  const revealing = own && mine(ctx, "reveal").length > 0;
  let places = own ? mine(ctx, "place") : [];
  if (arranging && arranging.chosen.length < arranging.needed.length) {
    places = row.map((_, index) => ({ index })).concat([{ index: row.length }]);
    places.forEach((slot) => { slot.pick = () => { arranging.chosen.push(slot.index); ctx.rerender(); }; });
  }
  const ghost = own && view.phase === "guess" ? landingIndex(row, view.drawn) : null;
  const pick = ctx.ui.target;
  const slotEl = (slot, title) => button("▾", slot.pick ?? (() => ctx.send({ type: "place", index: slot.index })),
    { class: "slot", title, dataset: { index: slot.index } });
  const cells = [];
  row.forEach((tile, index) => {
    const slot = places.find((a) => a.index === index);
    if (slot) cells.push(slotEl(slot, `place here (${index + 1})`));
    if (ghost === index) cells.push(h("span", { class: "ghost", title: "your drawn tile lands here if you stop" }));
    let onclick = null;
    if (guessing && !tile.revealed) onclick = () => { ctx.ui.target = { target: seat, index, color: tile.color }; ctx.rerender(); };
    if (revealing && !tile.revealed) onclick = () => ctx.send({ type: "reveal", index });
    cells.push(tileEl(tile, { own, landed: landed[seat] === tile.id, onclick, unveiled: Boolean(view.result),
      selected: pick && pick.target === seat && pick.index === index,
      label: `${ctx.name(seat)}, tile ${index + 1}` }));
  });
  const end = places.find((a) => a.index === row.length);
  if (end) cells.push(slotEl(end, "place at the end"));
  if (ghost === row.length) cells.push(h("span", { class: "ghost" }));
  const out = view.eliminated.includes(seat);
  const moving = view.to_move.includes(seat);
  return h("div", { class: `coda-row${own ? " own" : ""}${out ? " out" : ""}`, dataset: { seat } },
    h("div", { class: "row-name" }, moving ? "▶ " : "", ctx.name(seat), own ? " (you)" : "", out ? " · out" : "",
      view.options.rounds > 1 ? h("span", { class: "muted" }, ` · ${view.scores[seat]} pts`) : null),
    h("div", { class: "tiles" }, cells.length ? cells : h("span", { class: "muted" }, "no tiles yet")));
}

// "ready", with the opening dashes where you put them (the button shows once they are all in).
function readyControls(view, ctx) {
  const { needed, chosen } = arranged(view, ctx);
  if (chosen.length < needed.length) {
    const left = needed.length - chosen.length;
    return [h("span", { class: "prompt" }, `Place your ${left > 1 ? `${left} dashes` : "dash"}: click a ▾ slot in your row.`)];
  }
  const action = mine(ctx, "ready").find((a) => JSON.stringify(a.dashes ?? []) === JSON.stringify(chosen));
  const again = chosen.length ? [button("Move my dash" + (chosen.length > 1 ? "es" : ""),
    () => { ctx.ui.dashes = []; ctx.rerender(); }, { id: "coda-rearrange" })] : [];
  return [h("span", { class: "prompt" }, view.options.memory ? "Memorise your tiles, then:" : "Your row is set."),
    button("Ready", () => { ctx.ui.dashes = []; ctx.send(action); }, { id: "coda-ready", class: "primary" }), ...again];
}

function controls(view, ctx) {
  const parts = [];
  const openings = mine(ctx, "opening");
  if (openings.length) {
    const size = view.players === 4 ? 3 : 4;
    parts.push(h("span", { class: "prompt" }, "Choose your opening tiles:"),
      openings.map((a) => button(`${a.black} black · ${size - a.black} white`, () => ctx.send(a), { class: "opening", dataset: { black: a.black } })));
  }
  if (mine(ctx, "ready").length) parts.push(readyControls(view, ctx));
  if (mine(ctx, "place").length) {
    const side = view.drawn?.revealed ? "face up" : "face down";
    parts.push(h("span", { class: "prompt" }, `Place your drawn tile (${side}): click a ▾ slot in your row.`));
  }
  const draws = mine(ctx, "draw");
  if (draws.length) {
    parts.push(h("span", { class: "prompt", id: "coda-draw-prompt" },
      draws[0].color ? "Draw a tile: choose its colour." : "Draw the top tile of the deck."));
    parts.push(draws.map((a) => button(a.color ? `Draw ${a.color} (${view.pile[a.color]} left)` : `Draw (${view.pile.total} left)`,
      () => ctx.send(a), { class: `primary draw ${a.color ?? ""}`, dataset: { color: a.color ?? "" } })));
  }
  if (mine(ctx, "guess").length) parts.push(guessPicker(view, ctx));
  if (mine(ctx, "stop").length) parts.push(button("Stop and hide my tile", () => ctx.send({ type: "stop" }), { id: "coda-stop" }));
  if (mine(ctx, "reveal").length) parts.push(h("span", { class: "prompt" }, "Wrong guess with an empty pile: click one of your tiles to reveal it."));
  return parts.length ? h("div", { class: "controls" }, parts) : null;
}

function guessPicker(view, ctx) {
  const pick = ctx.ui.target;
  const legal = mine(ctx, "guess");
  if (!pick || !legal.some((a) => a.target === pick.target && a.index === pick.index)) {
    ctx.ui.target = null;
    return h("span", { class: "prompt", id: "coda-guess-prompt" }, "Guess: click a face-down tile of an opponent.");
  }
  const color = pick.color;
  const values = [...new Set(legal.filter((a) => a.target === pick.target && a.index === pick.index && a.color === color).map((a) => a.value))];
  const seen = seenValues(view)[color];
  return h("div", { class: "guess-picker", id: "coda-guess" },
    h("span", { class: "prompt" }, `${ctx.name(pick.target)}'s tile ${pick.index + 1} is`),
    h("span", { class: "colours", role: "group", "aria-label": t("coda.guess.colour") }, COLORS.map((c) => button(
      [c === color ? "✓ " : "", t(`coda.colour.${c}`)], () => { pick.color = c; ctx.rerender(); },
      { class: `colour ${c}${c === color ? " selected" : ""}`, "aria-pressed": String(c === color), dataset: { colour: c } }))),
    h("span", { class: "values" }, values.map((value) => button(show(value),
      () => { ctx.ui.target = null; ctx.send({ type: "guess", target: pick.target, index: pick.index, color, value }); },
      { class: `value ${color}${seen.has(value) ? " seen" : ""}`, dataset: { value },
        title: seen.has(value) ? t("coda.guess.seen", { value: show(value) }) : null }))));
}

// Every value the seat can read somewhere (rows, its drawn tile), per colour: greyed in the picker
// and the sheet, never forbidden (the seat may still guess it).
function seenValues(view) {
  const seen = { black: new Set(), white: new Set() };
  view.rows.forEach((row) => row.forEach((t) => { if (t.value !== null) seen[t.color].add(t.value); }));
  if (view.drawn?.value !== null && view.drawn?.value !== undefined) seen[view.drawn.color].add(view.drawn.value);
  return seen;
}

function drawnEl(view, ctx) {
  const waiting = (view.unplaced ?? []).slice(arranged(view, ctx).chosen.length);
  if (waiting.length) {
    return h("div", { class: "drawn" }, "To place: ",
      waiting.map((tile, i) => tileEl({ id: `unplaced-${i}`, color: tile.color, revealed: false, value: tile.value }, { own: true })));
  }
  if (!view.drawn) return null;
  const who = view.current === view.seat ? "You drew" : `${ctx.name(view.current)} drew`;
  const tile = { id: "drawn", color: view.drawn.color, revealed: view.drawn.revealed, value: view.drawn.value };
  return h("div", { class: "drawn" }, `${who} `, tileEl(tile, { own: true }), view.drawn.revealed ? " (face up)" : "");
}

function pileEl(view) {
  const pile = view.pile.total !== undefined ? `${view.pile.total} tiles in the deck`
    : `${view.pile.black ?? 0} black · ${view.pile.white ?? 0} white in the pile`;
  const round = view.options.rounds > 1 ? ` · round ${view.round} of ${view.options.rounds}` : "";
  return h("div", { class: "pile muted" }, pile, round);
}

function board(view, ctx) {
  const landed = lastLanding(view);
  return h("div", { class: "coda" }, pileEl(view),
    seatOrder(view).map((seat) => rowEl(view, ctx, seat, landed)),
    drawnEl(view, ctx), controls(view, ctx));
}

// The cracking sheet: one line per face-down tile you cannot read, values to cross out by hand,
// values you can see elsewhere greyed, and the belief engine's probabilities when asked for.
function notes(view, ctx) {
  const seen = seenValues(view);
  const values = view.options.dashes ? [...VALUES, "-"] : VALUES;
  const lines = [];
  view.rows.forEach((row, seat) => row.forEach((tile, index) => {
    if (tile.value !== null) return;
    const label = [`${ctx.name(seat)} #${index + 1} `, h("span", { class: `dot ${tile.color}` })];
    lines.push(sheetLine(ctx, `${seat}:${tile.id}`, label, values,
      { odds: ctx.hint?.rows?.[seat]?.[index] ?? null, seen: seen[tile.color], text: show }));
  }));
  if (!lines.length) return h("p", { class: "muted" }, "No hidden tiles to note.");
  return sheetTable(ctx, lines, { values, text: show });
}

function describe(event, ctx) {
  const who = ctx.name(event.seat);
  switch (event.type) {
    case "round": return `Round ${event.round}: ${ctx.name(event.first)} starts.`;
    case "deal": return `${who} gets ${event.colors.length} tiles (${event.colors.filter((c) => c === "black").length} black).`;
    case "opening": return `${who} asks for ${event.black} black tile${event.black === 1 ? "" : "s"}.`;
    case "ready": return `${who} is ready.`;
    case "draw": return `${who} draws a ${event.color} tile.`;
    case "guess": return `${who} guesses ${ctx.name(event.target)}'s tile ${event.index + 1} is ${event.color} ${show(event.value)}: ${event.hit ? "hit!" : "miss."}`;
    case "stop": return `${who} stops.`;
    case "insert": return event.revealed
      ? `${who}'s ${event.color} ${show(event.value)} goes face up at place ${event.index + 1}.`
      : `${who}'s ${event.color} tile goes face down at place ${event.index + 1}.`;
    case "reveal": return `${who} reveals ${show(event.value)} (place ${event.index + 1}).`;
    case "timeout": return `${who} ran out of time.`;
    case "eliminated": return `${who} is out.`;
    case "round_over": return `Round ${event.round ?? ""} over: ${ctx.name(event.winner)} wins it.`;
    default: return null;
  }
}

// The end summary's extra lines: how to read the revealed rows, and each round of a longer game.
function summary(view, ctx) {
  const rounds = view.options.rounds > 1 ? view.result.rounds.map((r) => t("coda.end.round",
    { round: r.round, name: ctx.name(r.winner), points: r.points.map((p, s) => `${ctx.name(s)} ${p}`).join(", ") })) : [];
  return [t("coda.end.unveiled"), ...rounds];
}

export default {
  covers: new Set(["opening", "ready", "place", "draw", "guess", "stop", "reveal"]),
  board,
  notes,
  describe,
  summary,
};

// Coda: rows of black and white tiles drawn in CSS. Backs show the colour; values show where known.
import { button, h, toMoveMark } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { sheetLine, sheetTable } from "/static/js/sheet.js";
import teaching from "./teaching.js";

const VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const show = (value) => (value === "-" ? "–" : String(value));
const colour = (color) => t(`coda.color.${color}`);
const spoken = (value) => (value === "-" ? t("a11y.coda.dash") : String(value));

// What a tile shows, in words: its colour, its value where this seat sees it, face up or down.
function tileWords(tile) {
  const shade = colour(tile.color);
  if (tile.value === null || tile.value === undefined) return t("a11y.coda.tile.back", { colour: shade });
  return t(tile.revealed ? "a11y.coda.tile.up" : "a11y.coda.tile.down", { colour: shade, value: spoken(tile.value) });
}
const mine = (ctx, type) => (ctx.send ? ctx.view.legal_actions.filter((a) => a.type === type) : []);

function tileEl(tile, { own = false, landed = false, onclick = null, selected = false, label = "", unveiled = false } = {}) {
  const known = tile.value !== null && tile.value !== undefined;
  const classes = ["tile", tile.color, tile.revealed ? "up" : "down", known ? "known" : "back",
    own && !tile.revealed ? "own" : "", landed ? "landed" : "", onclick ? "pick" : "", selected ? "selected" : "",
    unveiled && !tile.revealed ? "unveiled" : ""];
  return h(onclick ? "button" : "span", {
    class: classes.filter(Boolean).join(" "), onclick, type: onclick ? "button" : null,
    title: label, dataset: { tile: tile.id, color: tile.color, ...(own && !tile.revealed ? { note: t("coda.hidden") } : {}) }, // the CSS shows the note
    "aria-label": label ? t("a11y.coda.tile.at", { place: label, tile: tileWords(tile) }) : tileWords(tile), "aria-pressed": selected ? "true" : null, role: onclick ? null : "img",
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
  if (!drawn || drawn.value === null || drawn.value === "-" || row.some((tile) => tile.value === null)) return null;
  const key = (tile) => tile.value * 2 + (tile.color === "white" ? 1 : 0);
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
    { class: "slot", title, "aria-label": title, dataset: { index: slot.index } });
  const cells = [];
  row.forEach((tile, index) => {
    const slot = places.find((a) => a.index === index);
    if (slot) cells.push(slotEl(slot, t("coda.place_here", { place: index + 1 })));
    if (ghost === index) cells.push(h("span", { class: "ghost", title: t("coda.lands_here") }));
    let onclick = null;
    if (guessing && !tile.revealed) onclick = () => { ctx.ui.target = { target: seat, index, color: tile.color, tile: tile.id }; ctx.rerender(); focusGuess(); };
    if (revealing && !tile.revealed) onclick = () => ctx.send({ type: "reveal", index });
    cells.push(tileEl(tile, { own, landed: landed[seat] === tile.id, onclick, unveiled: Boolean(view.result),
      selected: pick && pick.target === seat && pick.index === index,
      label: t("coda.tile_label", { name: ctx.name(seat), place: index + 1 }) }));
  });
  const end = places.find((a) => a.index === row.length);
  if (end) cells.push(slotEl(end, t("coda.place_end")));
  if (ghost === row.length) cells.push(h("span", { class: "ghost" }));
  const out = view.eliminated.includes(seat);
  const moving = view.to_move.includes(seat);
  return h("div", { class: `coda-row${own ? " own" : ""}${out ? " out" : ""}`, dataset: { seat } },
    h("div", { class: "row-name" }, moving ? toMoveMark() : "", ctx.name(seat), own ? ` ${t("coda.you")}` : "", out ? ` · ${t("coda.out")}` : "",
      view.options.rounds > 1 ? h("span", { class: "muted" }, ` · ${t("coda.points", { count: view.scores[seat] })}`) : null),
    h("div", { class: "tiles" }, cells.length ? cells : h("span", { class: "muted" }, t("coda.no_tiles"))));
}

// "ready", with the opening dashes where you put them (the button shows once they are all in).
function readyControls(view, ctx) {
  const { needed, chosen } = arranged(view, ctx);
  if (chosen.length < needed.length) {
    const left = needed.length - chosen.length;
    return [h("span", { class: "prompt" }, t("coda.prompt.place_dashes", { count: left }))];
  }
  const action = mine(ctx, "ready").find((a) => JSON.stringify(a.dashes ?? []) === JSON.stringify(chosen));
  const again = chosen.length ? [button(t("coda.move_dashes", { count: chosen.length }),
    () => { ctx.ui.dashes = []; ctx.rerender(); }, { id: "coda-rearrange" })] : [];
  return [h("span", { class: "prompt" }, view.options.memory ? t("coda.prompt.memorise") : t("coda.prompt.row_set")),
    button(t("coda.ready"), () => { ctx.ui.dashes = []; ctx.send(action); }, { id: "coda-ready", class: "primary" }), ...again];
}

function controls(view, ctx) {
  const parts = [];
  const openings = mine(ctx, "opening");
  if (openings.length) {
    const size = view.players === 4 ? 3 : 4;
    parts.push(h("span", { class: "prompt" }, t("coda.prompt.opening")),
      openings.map((a) => button(t("coda.opening", { black: a.black, white: size - a.black }), () => ctx.send(a), { class: "opening", dataset: { black: a.black } })));
  }
  if (mine(ctx, "ready").length) parts.push(readyControls(view, ctx));
  if (mine(ctx, "place").length) {
    const wonRound = view.eliminated.length === view.players - 1 && !view.eliminated.includes(view.seat);
    parts.push(h("span", { class: "prompt", id: "coda-place-prompt" }, wonRound ? h("b", {}, `${t("coda.prompt.won_round")} `) : null,
      view.drawn?.revealed ? t("coda.prompt.place_up") : t("coda.prompt.place_down")));
  }
  const draws = mine(ctx, "draw");
  if (draws.length) {
    parts.push(h("span", { class: "prompt", id: "coda-draw-prompt" },
      draws[0].color ? t("coda.prompt.draw_colour") : t("coda.prompt.draw_deck")));
    parts.push(draws.map((a) => button(a.color ? t("coda.draw_colour", { color: colour(a.color), left: view.pile[a.color] })
      : t("coda.draw_deck", { left: view.pile.total }),
      () => ctx.send(a), { class: `primary draw ${a.color ?? ""}`, dataset: { color: a.color ?? "" } })));
  }
  if (mine(ctx, "guess").length) parts.push(guessPicker(view, ctx));
  if (mine(ctx, "stop").length) parts.push(button(t("coda.stop"), () => ctx.send({ type: "stop" }), { id: "coda-stop" }));
  if (mine(ctx, "reveal").length) parts.push(h("span", { class: "prompt" }, t("coda.prompt.reveal")));
  return parts.length ? h("div", { class: "controls" }, parts) : null;
}

// After choosing a tile to guess, the keyboard goes on to the values (Escape goes back).
function focusGuess() {
  document.querySelector("#coda-guess button.value")?.focus();
}

function key(event, ctx) {
  if (event.key === "Escape" && ctx.ui.target) {
    const { target, tile } = ctx.ui.target;
    ctx.ui.target = null;
    ctx.rerender();
    document.querySelector(`.coda-row[data-seat="${target}"] [data-tile="${CSS.escape(String(tile))}"]`)?.focus();
  }
}

function guessPicker(view, ctx) {
  const pick = ctx.ui.target;
  const legal = mine(ctx, "guess");
  if (!pick || !legal.some((a) => a.target === pick.target && a.index === pick.index)) {
    ctx.ui.target = null;
    return h("span", { class: "prompt", id: "coda-guess-prompt" }, t("coda.prompt.guess"));
  }
  const color = pick.color;
  const values = [...new Set(legal.filter((a) => a.target === pick.target && a.index === pick.index && a.color === color).map((a) => a.value))];
  const seen = seenValues(view)[color];
  return h("div", { class: "guess-picker", id: "coda-guess" },
    h("span", { class: "prompt" }, t("coda.guess_is", { name: ctx.name(pick.target), place: pick.index + 1 })),
    // Only the tile's own colour: everyone sees a face-down tile's colour, so the other is a sure miss.
    h("span", { class: "colours", role: "group", "aria-label": t("coda.guess.colour") }, button(
      ["✓ ", colour(color)], () => {}, { class: `colour ${color} selected`, "aria-pressed": "true", dataset: { colour: color } })),
    h("span", { class: "values" }, values.map((value) => button(show(value),
      () => { ctx.ui.target = null; ctx.send({ type: "guess", target: pick.target, index: pick.index, color, value }); },
      { class: `value ${color}${seen.has(value) ? " seen" : ""}`, dataset: { value },
        "aria-label": t("a11y.coda.guess_value", { colour: colour(color), value: spoken(value) }),
        title: seen.has(value) ? t("coda.guess.seen", { value: show(value) }) : null }))));
}

// Every value the seat can read somewhere (rows, its drawn tile), per colour: greyed in the picker
// and the sheet, never forbidden (the seat may still guess it).
function seenValues(view) {
  const seen = { black: new Set(), white: new Set() };
  view.rows.forEach((row) => row.forEach((tile) => { if (tile.value !== null) seen[tile.color].add(tile.value); }));
  if (view.drawn?.value !== null && view.drawn?.value !== undefined) seen[view.drawn.color].add(view.drawn.value);
  return seen;
}

function drawnEl(view, ctx) {
  const waiting = (view.unplaced ?? []).slice(arranged(view, ctx).chosen.length);
  if (waiting.length) {
    return h("div", { class: "drawn" }, t("coda.to_place"), " ",
      waiting.map((tile, i) => tileEl({ id: `unplaced-${i}`, color: tile.color, revealed: false, value: tile.value }, { own: true })));
  }
  if (!view.drawn) return null;
  const who = view.current === view.seat ? t("coda.you_drew") : t("coda.drew", { name: ctx.name(view.current) });
  const tile = { id: "drawn", color: view.drawn.color, revealed: view.drawn.revealed, value: view.drawn.value };
  return h("div", { class: "drawn" }, `${who} `, tileEl(tile, { own: true }), view.drawn.revealed ? ` ${t("coda.face_up")}` : "");
}

function pileEl(view) {
  const pile = view.pile.total !== undefined ? t("coda.deck_left", { count: view.pile.total })
    : t("coda.pile_left", { black: view.pile.black ?? 0, white: view.pile.white ?? 0 });
  const round = view.options.rounds > 1 ? ` · ${t("coda.round_of", { round: view.round, rounds: view.options.rounds })}` : "";
  return h("div", { class: "pile muted" }, pile, round);
}

function board(view, ctx) {
  const landed = lastLanding(view);
  return h("div", { class: "coda" }, pileEl(view),
    seatOrder(view).map((seat) => rowEl(view, ctx, seat, landed)),
    drawnEl(view, ctx), controls(view, ctx));
}

// The cracking sheet: one line per face-down tile you cannot read, values to cross out by hand,
// values you can see elsewhere greyed, auto-notes' values ruled out, and the belief engine's
// probabilities when asked for.
function notes(view, ctx) {
  const seen = seenValues(view);
  const values = view.options.dashes ? [...VALUES, "-"] : VALUES;
  const lines = [];
  view.rows.forEach((row, seat) => row.forEach((tile, index) => {
    if (tile.value !== null) return;
    const label = h("span", { class: "line-label" }, h("span", { class: "who" }, ctx.name(seat)),
      h("span", { class: "keep" }, ` #${index + 1} `, h("span", { class: `dot ${tile.color}`, title: colour(tile.color) })));
    const possible = ctx.auto?.rows?.[seat]?.[index]; // the values this tile may still hold
    lines.push(sheetLine(ctx, `${seat}:${tile.id}`, label, values, {
      odds: ctx.hint?.rows?.[seat]?.[index] ?? null, seen: seen[tile.color], text: show,
      out: possible ? new Set(values.filter((value) => !(String(value) in possible))) : null,
    }));
  }));
  if (!lines.length) return h("p", { class: "muted" }, t("coda.sheet.none"));
  return sheetTable(ctx, lines, { values, text: show });
}

// An older hint still fits while no row has grown (a tile's place is its index in the hint).
function hintFits(hint, view) {
  return hint.rows?.length === view.rows.length && hint.rows.every((row, seat) => row.length === view.rows[seat].length);
}

function describe(event, ctx) {
  const who = ctx.name(event.seat);
  switch (event.type) {
    case "round": return t("coda.event.round", { round: event.round, name: ctx.name(event.first) });
    case "deal": return t("coda.event.deal", { name: who, count: event.colors.length, black: event.colors.filter((c) => c === "black").length });
    case "opening": return t("coda.event.opening", { name: who, count: event.black });
    case "ready": return t("coda.event.ready", { name: who });
    case "draw": return t("coda.event.draw", { name: who, color: colour(event.color) });
    case "guess": return t(event.hit ? "coda.event.hit" : "coda.event.miss", { name: who, target: ctx.name(event.target),
      place: event.index + 1, color: colour(event.color), value: show(event.value) });
    case "stop": return t("coda.event.stop", { name: who });
    case "insert": return event.revealed
      ? t("coda.event.insert_up", { name: who, color: colour(event.color), value: show(event.value), place: event.index + 1 })
      : t("coda.event.insert_down", { name: who, color: colour(event.color), place: event.index + 1 });
    case "reveal": return t("coda.event.reveal", { name: who, value: show(event.value), place: event.index + 1 });
    case "timeout": return t("coda.event.timeout", { name: who });
    case "eliminated": return t("coda.event.eliminated", { name: who });
    case "round_over": return t("coda.event.round_over", { round: event.round ?? "", name: ctx.name(event.winner) });
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
  hintFits,
  describe,
  key,
  summary,
  teaching,
};

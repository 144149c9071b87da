// Example views for the how-to pages' pictures, drawn by each game's own board component.
// They use the seeds' own examples: a dash left of 0 (Coda), "F 9 8" and "D 5 7" (The Coding),
// zone (O, D) answering 3 (Alphabet Code).

const tile = (id, color, value, revealed = false) => ({ id, color, value, revealed });

function codaView(rows, options = {}) {
  return {
    game: "coda", seat: 0, players: 2, phase: "guess", current: 0, to_move: [], round: 1, scores: [0, 0],
    options: { rounds: 1, dashes: false, notes: true, ...options }, pile: { black: 6, white: 6 },
    rows, drawn: null, unplaced: [], eliminated: [], history: [], legal_actions: [], result: null,
  };
}

const CODA_ROW = codaView([
  [tile(0, "black", 1), tile(1, "white", 3), tile(2, "black", 7, true), tile(3, "white", 9)],
  [tile(0, "black", null), tile(1, "white", 5, true), tile(2, "white", null), tile(3, "black", null)],
]);

const CODA_DASH = codaView([
  [tile(0, "white", "-"), tile(1, "black", 0), tile(2, "white", 4), tile(3, "black", 9)],
  [tile(0, "black", null), tile(1, "white", null), tile(2, "black", null), tile(3, "white", null)],
], { dashes: true });

const hack = (id, position, values) => ({ id, position, values });
const noCards = { letter: null, x1: null, x2: null };

const CODING_TABLE = {
  game: "coding", seat: 0, players: 2, phase: "hacking", step: "data", round: 1, rounds: 4, turn: 1,
  first_one: 0, to_move: [], options: { mode: "counter-revised", notes: true },
  data_stacks: { "A-B": 1, "C-D": 1, "E-F": 1, "00-19": 1, "20-39": 0, "40-59": 1, "60-79": 1, "80-99": 1 },
  hack_row: [hack(1, "letter", ["A", "C", "E"]), hack(2, "x2", [7, 8, 9]), hack(3, "x1", [1, 3, 5]),
    hack(4, "x2", [0, 4, 8]), hack(5, "letter", ["B", "D", "F"])],
  hack_deck: 14, table: { letters: [], digits: [] },
  own: { letter: "F", digits: [8, 9], code: "F98", x1: 9, x2: 8 },
  sheets: [
    { seat: 0, out: false, data: ["20-39"], cannot: [], hacks: [], revealed: noCards, wrong_decodes: 0, code: "F98" },
    { seat: 1, out: false, data: [], cannot: [], hacks: [{ card: hack(0, "x1", [0, 2, 4, 6, 8]), green: false }],
      revealed: noCards, wrong_decodes: 0, code: "D57" },
  ],
  history: [], legal_actions: [], result: null,
};

const letters = (...spec) => spec.map(([letter, row, column]) => ({ letter, row, column }));

const ALPHACODE_ZONE = {
  game: "alphacode", seat: 0, players: 2, mode: "duel", creator: null, round: 1, phase: "play", first: 0,
  to_move: [], target: 1, letters: "abcdefghij", options: {}, code: null, misses: [0, 0], history: [], legal_actions: [],
  sheet: { columns: 13, rows: 5, column_labels: [..."ABCDEFGHIJKLM"], row_labels: [..."NOPQR"] },
  questions: [{ type: "answer", seat: 0, target: 1, question: { type: "count", row: "O", column: "D" }, answer: 3, round: 1 }],
  codes: { 1: letters(["c", "P", "A"], ["a", "N", "C"], ["i", "P", "I"], ["f", "N", "K"], ["j", "N", "K"]) },
  result: null,
};

// Per game: [caption key, example view] pairs.
export const EXAMPLES = {
  coda: [["learn.rules.coda.picture.row", CODA_ROW], ["learn.rules.coda.picture.dash", CODA_DASH]],
  coding: [[["learn.rules.coding.picture.player", "learn.rules.coding.picture.hack"], CODING_TABLE]],
  alphacode: [["learn.rules.alphacode.picture.sheet", ALPHACODE_ZONE]],
};

export const TIPS = {
  coda: ["learn.tips.coda.1", "learn.tips.coda.2", "learn.tips.coda.3", "learn.tips.coda.4", "learn.tips.coda.5", "learn.tips.coda.6"],
  coding: ["learn.tips.coding.1", "learn.tips.coding.2", "learn.tips.coding.3"],
  alphacode: ["learn.tips.alphacode.1"],
};

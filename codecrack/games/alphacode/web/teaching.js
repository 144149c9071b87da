// Alphabet Code's teaching: the how-to page's pictures (example views drawn by this game's board),
// the strategy tips, and what the tutorial's coach points at: the CSS selectors of the control that
// makes a lesson's action (given what the learner has already picked in the page's UI), or of what
// a reading step reads.
// The picture uses the seeds' own example: zone (O, D) answering 3.

const at = (row, column) => `[data-row="${row}"][data-column="${column}"]`;
const letters = (...spec) => spec.map(([letter, row, column]) => ({ letter, row, column }));

const ALPHACODE_ZONE = {
  game: "alphacode", seat: 0, players: 2, mode: "duel", creator: null, round: 1, phase: "play", first: 0,
  to_move: [], target: 1, letters: "abcdefghij", options: {}, code: null, misses: [0, 0], history: [], legal_actions: [],
  sheet: { columns: 13, rows: 5, column_labels: [..."ABCDEFGHIJKLM"], row_labels: [..."NOPQR"] },
  questions: [{ type: "answer", seat: 0, target: 1, question: { type: "count", row: "O", column: "D" }, answer: 3, round: 1 }],
  codes: { 1: letters(["c", "P", "A"], ["a", "N", "C"], ["i", "P", "I"], ["f", "N", "K"], ["j", "N", "K"]) },
  result: null,
};

// What the coach points at for the lesson's action.
function targets(action, view, ui) {
  switch (action.type) {
    case "random_code": return ["#alphacode-random"];
    case "count":
    case "filled": return [`#target-sheet ${at(action.row, action.column)}`];
    case "declare": return declaring(action, ui);
    default: return [];
  }
}

// The declaration builder, one letter at a time: open it, pick the letter, click its corner point.
function declaring(action, ui) {
  if (!ui.declareOpen) return ["details.declare > summary"];
  const state = ui.declare ?? { placed: {} };
  const next = action.letters.find((e) => state.placed[e.letter]?.row !== e.row || state.placed[e.letter]?.column !== e.column);
  if (!next) return ["#declare-go"];
  if (state.letter !== next.letter) return [`#declare-builder .palette [data-letter="${next.letter}"]`];
  return [`#declare-sheet ${at(next.row, next.column)}`];
}

export default {
  examples: [["learn.rules.alphacode.picture.sheet", ALPHACODE_ZONE]],
  tips: ["learn.tips.alphacode.1"],
  reading: { zone_answer: [`#target-sheet ${at("O", "D")}`], square_answer: [".notes"], settled: ["#target-sheet"] },
  targets,
};

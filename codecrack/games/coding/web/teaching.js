// The Coding's teaching: the how-to page's pictures (example views drawn by this game's board),
// the strategy tips, and what the tutorial's coach points at: the CSS selectors of the control that
// makes a lesson's action (given what the learner has already picked in the page's UI), or of what
// a reading step reads.
// The picture uses the seeds' own example: "F 9 8" and "D 5 7".

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

// What the coach points at for the lesson's action.
function targets(action, view, ui) {
  switch (action.type) {
    case "order": return [`button.order[data-x1="${action.x1}"]`];
    case "take": return [`.stack[data-type="${action.card}"]`];
    case "give": return ui.hack === action.card ? [`.coding-player[data-seat="${action.to}"] button.give`]
      : [`.hack-row [data-card="${action.card}"]`];
    case "decode": return ["#coding-decode"];
    default: return [];
  }
}

export default {
  examples: [[["learn.rules.coding.picture.player", "learn.rules.coding.picture.hack"], CODING_TABLE]],
  tips: ["learn.tips.coding.1", "learn.tips.coding.2", "learn.tips.coding.3"],
  reading: { green_red: [".coding-player[data-seat=\"1\"] .hack"], your_cards: [".coding-player[data-seat=\"0\"] .hack"], sheet: [".notes"] },
  targets,
};

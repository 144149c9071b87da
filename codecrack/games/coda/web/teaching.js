// Coda's teaching: the how-to page's pictures (example views drawn by this game's board),
// the strategy tips, and what the tutorial's coach points at: the CSS selectors of the control that
// makes a lesson's action (given what the learner has already picked in the page's UI), or of what
// a reading step reads.
// The pictures use the seeds' own example: a dash left of 0.

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

// What the coach points at for the lesson's action.
function targets(action, view, ui) {
  switch (action.type) {
    case "opening": return [`button.opening[data-black="${action.black}"]`];
    case "draw": return [action.color ? `button.draw[data-color="${action.color}"]` : "button.draw"];
    case "stop": return ["#coda-stop"];
    case "place": return [`.slot[data-index="${action.index}"]`];
    case "guess": {
      const pick = ui.target;
      if (!pick || pick.target !== action.target || pick.index !== action.index) {
        const id = view.rows[action.target]?.[action.index]?.id;
        return [`.coda-row[data-seat="${action.target}"] [data-tile="${id}"]`];
      }
      if (pick.color !== action.color) return [`.guess-picker .colour.${action.color}`];
      return [`.guess-picker .value[data-value="${action.value}"]`];
    }
    default: return [];
  }
}

export default {
  examples: [["learn.rules.coda.picture.row", CODA_ROW], ["learn.rules.coda.picture.dash", CODA_DASH]],
  tips: ["learn.tips.coda.1", "learn.tips.coda.2", "learn.tips.coda.3", "learn.tips.coda.4", "learn.tips.coda.5", "learn.tips.coda.6"],
  reading: { rows: [".coda-row"], their_turn: [".coda-row[data-seat=\"1\"]"] },
  targets,
};

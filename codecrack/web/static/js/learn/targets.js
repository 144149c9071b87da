// Where the coach points: the CSS selectors of the control that makes a lesson's action (or, for a
// reading step, of what to read), given what the learner has already picked in the page's UI.

const at = (row, column) => `[data-row="${row}"][data-column="${column}"]`;

function coda(action, view, ui) {
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

function coding(action, view, ui) {
  switch (action.type) {
    case "order": return [`button.order[data-x1="${action.x1}"]`];
    case "take": return [`.stack[data-type="${action.card}"]`];
    case "give": return ui.hack === action.card ? [`.coding-player[data-seat="${action.to}"] button.give`]
      : [`.hack-row [data-card="${action.card}"]`];
    case "decode": return ["#coding-decode"];
    default: return [];
  }
}

function alphacode(action, view, ui) {
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

// What each reading step points at.
const READING = {
  coda: { rows: [".coda-row"], their_turn: [".coda-row[data-seat=\"1\"]"] },
  coding: { green_red: [".coding-player[data-seat=\"1\"] .hack"], your_cards: [".coding-player[data-seat=\"0\"] .hack"], sheet: [".notes"] },
  alphacode: { zone_answer: [`#target-sheet ${at("O", "D")}`], square_answer: [".notes"], settled: ["#target-sheet"] },
};

const BY_GAME = { coda, coding, alphacode };

export function highlights(game, lesson, view, ui) {
  if (!lesson.action) return READING[game]?.[lesson.say] ?? [];
  return BY_GAME[game]?.(lesson.action, view, ui) ?? [];
}

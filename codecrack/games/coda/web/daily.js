// The daily Coda puzzle (the host's /daily?game=coda): a position from a real game where one guess is
// clearly best; the player guesses a hidden tile on Coda's own board (the page: /static/js/decision.js).
import { decisionDaily } from "/static/js/decision.js";
import { t } from "/static/js/i18n.js";

export default decisionDaily({
  game: "coda",
  kind: "guess",
  prefix: "puzzle",
  name: (seat, view) => t(seat === view.seat ? "puzzle.you" : "puzzle.opponent"),
  answerText: (guess) => t("puzzle.guess", { number: guess.index + 1, color: t(`coda.color.${guess.color}`), value: guess.value }),
});

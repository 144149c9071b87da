// The daily Coding puzzle (the host's /daily?game=coding): a seat about to decode, with its data and
// hack cards and the public record; the player writes one opponent's code with The Coding's own
// decode form (the page: /static/js/decision.js).
import { decisionDaily } from "/static/js/decision.js";
import { t } from "/static/js/i18n.js";

const name = (seat, view) => (seat === view.seat ? t("puzzle.you") : t("coding_puzzle.player", { number: seat + 1 }));

export default decisionDaily({
  game: "coding",
  kind: "decode",
  prefix: "coding_puzzle",
  name,
  answerText: (decode, view) => t("coding_puzzle.code", { player: name(decode.target, view), code: decode.code }),
});

// Tiny Guess's board (served by codecrack from this package as /games/tinyguess/board.js): your
// card, then each guess and its answer. The generic actions panel offers the guesses.
import { h, seatName } from "/static/js/dom.js";

export default {
  board(view, ctx) {
    const mine = view.card === null ? null : h("p", { class: "tinyguess-card" }, `🂠 ${view.card}`);
    const guesses = view.history.map((event) =>
      h("li", { dataset: { target: event.target } }, `${seatName(ctx.table, event.seat)} → ${seatName(ctx.table, event.target)}: ${event.value} (${event.answer})`));
    return h("div", { class: "tinyguess-board" }, mine, h("ol", { class: "tinyguess-guesses" }, guesses));
  },
};

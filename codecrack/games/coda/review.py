"""Coda review: the guess (its exact hit chance against the likeliest guess), the colour drawn
(the expected hit chance of the turn's first guess) and, after a hit, going on or stopping
(a one-step expected value in cover units, see ``docs/review.md``).

Beliefs are the seat's exact counts (:func:`~codecrack.games.coda.belief.solve`) from its view,
with its own tiles remembered as it saw them; nothing else is read.
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_, _
from ...review.core import CHANCE, TILES, Decision
from ...review.numbering import seat_number, tile_number
from .belief import Belief, Position, solve
from .observe import COLOR_NAMES, COLORS, OwnMemory, position_from_view, value_code, value_name
from .search import (
    Guess,
    cover,
    draw_outlook,
    drawn_tile,
    exposure_after,
    guesses,
    hidden,
    landing_places,
    own_values,
    targets,
    with_value,
)

WIN = 4.0  # ending the round by a hit, in cover units (as the hard tier counts it)
KNOCKOUT = 3.0  # eliminating one of several opponents


def guess_text(target: int, index: int, color: int, value: int) -> str:
    return _("{color} {value} on seat {seat}'s tile {index}").format(
        color=_(COLOR_NAMES[color]), value=value_name(value), seat=seat_number(target), index=tile_number(index)
    )


class CodaReviewer:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.memory = OwnMemory()

    def review(self, step: int, view: dict[str, Any], action: dict[str, Any]) -> list[Decision]:
        self.memory.observe(view)
        kind = action.get("type")
        if kind == "draw" and len(view["legal_actions"]) > 1:
            return [self.draw(step, view, action)]
        if kind not in ("guess", "stop") or view["phase"] != "guess":
            return []
        position = position_from_view(view, self.memory.masks)
        belief = solve(position)
        if not belief.total:  # only a forgetful seat's own confusion can cause this
            return []
        options = guesses(position, belief, targets(view))
        decisions = []
        if view["hits_this_turn"]:
            decisions.append(self.go_on(step, view, position, belief, options[0], kind == "stop"))
        if kind == "guess":
            decisions.append(self.guess(step, position, belief, options[0], action))
        return decisions

    # -- the three decisions ---------------------------------------------------------------------
    def guess(self, step: int, position: Position, belief: Belief, best: Guess, action: dict[str, Any]) -> Decision:
        target, index, value = action["target"], action["index"], value_code(action["value"])
        color = position.rows[target][index].color
        assert color is not None and value is not None  # a guess names a value; every tile's colour is public
        p = float(belief.probs[target][index][value])
        note = _("impossible: what you could see rules it out") if p == 0 else ""
        return Decision.judge(
            step,
            N_("guess"),
            CHANCE,
            guess_text(target, index, color, value),
            p,
            guess_text(best.target, best.index, best.color, best.value),
            best.p,
            note,
            worst=p == 0,
        )

    def draw(self, step: int, view: dict[str, Any], action: dict[str, Any]) -> Decision:
        position = position_from_view(view, self.memory.masks)
        belief = solve(position)
        outlook = {
            a["color"]: draw_outlook(view, position, belief, COLORS[a["color"]]) if belief.total else 0.0
            for a in view["legal_actions"]
        }
        best = max(outlook, key=outlook.__getitem__)
        return Decision.judge(
            step,
            N_("draw"),
            CHANCE,
            _("drew {color}").format(color=_(action["color"])),
            outlook[action["color"]],
            _("draw {color}").format(color=_(best)),
            outlook[best],
            _("expected chance that the turn's first guess hits"),
        )

    def go_on(
        self, step: int, view: dict[str, Any], position: Position, belief: Belief, best: Guess, stopped: bool
    ) -> Decision:
        stop, miss = self.turn_end_values(view)
        gain = self.hit_gain(view, position, belief, best)
        on = best.p * (gain + stop) + (1 - best.p) * miss  # after a hit the turn still ends by a stop
        go = _("go on ({chance}: {guess})").format(
            chance=f"{best.p:.0%}", guess=guess_text(best.target, best.index, best.color, best.value)
        )
        note = _("a hit gains {gain}; your row hides {stop} after a stop, {miss} after a miss").format(
            gain=f"{gain:+.2f}", stop=f"{stop:+.2f}", miss=f"{miss:+.2f}"
        )
        if stopped:
            return Decision.judge(step, N_("go on or stop"), TILES, _("stopped"), stop, go, on, note)
        return Decision.judge(step, N_("go on or stop"), TILES, _("went on"), on, _("stop"), stop, note)

    # -- values in cover units ---------------------------------------------------------------------
    @staticmethod
    def hit_gain(view: dict[str, Any], position: Position, belief: Belief, guess: Guess) -> float:
        """How much less the opponents' rows hide once ``guess`` hits, plus ending a row."""
        seats = targets(view)
        after = with_value(position, guess.target, guess.index, guess.value)
        known = solve(after)
        gain = sum(cover(position, belief, s) - cover(after, known, s) for s in seats)
        if not hidden(after, guess.target):
            gain += WIN if len(seats) == 1 else KNOCKOUT
        return gain

    def turn_end_values(self, view: dict[str, Any]) -> tuple[float, float]:
        """(stop, miss): the change in how much the own row hides from every opponent when the
        drawn tile enters face-down (stop) or face-up (miss); with no tile in hand a miss turns
        up the own tile that hides least, or ends the round under ``eliminate``."""
        public = position_from_view(view, public=True)
        belief = solve(public)
        base = cover(public, belief, self.seat)
        readers = len(targets(view))
        drawn = drawn_tile(view)
        if drawn is None:
            if view["options"]["empty_deck"] == "eliminate":
                return 0.0, -WIN
            least = min((1.0 - float(belief.probs[self.seat][i].max()) for i in hidden(public, self.seat)), default=0.0)
            return 0.0, -readers * least
        color, value = drawn
        places = self.landings(view, color, value)
        stop = max(exposure_after(public, view, i, color, None) for i in places)
        miss = max(exposure_after(public, view, i, color, value) for i in places)
        return readers * (stop - base), readers * (miss - base)

    def landings(self, view: dict[str, Any], color: int, value: int) -> list[int]:
        """Where the drawn tile may go: anywhere for a dash, else its sorted place (either side
        of a dash next to it)."""
        row = view["rows"][self.seat]
        return landing_places(own_values(view, self.memory.masks), [COLORS[t["color"]] for t in row], color, value)


REVIEWER = CodaReviewer  # read by codecrack.review.core.reviewer_for

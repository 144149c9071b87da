"""Coda's declared nature (see :mod:`codecrack.core.nature`) for each player count and options.

>>> from codecrack.games.coda.rules import CodaOptions
>>> nature = declare(2, CodaOptions())
>>> sorted(nature.dynamics), nature.actions.size, nature.chance
(['sequential', 'simultaneous'], 1010, ('first', 'draw'))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.nature import ActionSpace, Dynamics, Nature
from .tiles import COLORS, full_set, hand_size, tile_values


def longest_row(players: int, dashes: bool) -> int:
    """The most tiles one row can hold: every tile but the other players' opening hands."""
    return len(full_set(dashes)) - (players - 1) * hand_size(players)


def action_templates(players: int, options: Any) -> list[dict[str, Any]]:
    """Every action Coda can offer in this configuration, in a fixed order."""
    row = longest_row(players, options.dashes)
    draws = [{"type": "draw"}] if options.draw == "deck" else [{"type": "draw", "color": color} for color in COLORS]
    return [
        *({"type": "opening", "black": black} for black in range(hand_size(players) + 1)),
        {"type": "ready"},
        *(ready_with_dashes(hand_size(players)) if options.dashes else []),
        *({"type": "place", "index": index} for index in range(row + 1)),
        *draws,
        *(
            {"type": "guess", "target": target, "index": index, "color": color, "value": value}
            for target in range(players)
            for index in range(row)
            for color in COLORS
            for value in tile_values(options.dashes)
        ),
        {"type": "stop"},
        *({"type": "reveal", "index": index} for index in range(row)),
    ]


def ready_with_dashes(hand: int) -> list[dict[str, Any]]:
    """``ready`` placing one opening dash (among the hand's other tiles) or both (the second
    counted in the row after the first went in)."""
    one = [{"type": "ready", "dashes": [index]} for index in range(hand)]
    two = [{"type": "ready", "dashes": [first, second]} for first in range(hand - 1) for second in range(hand)]
    return one + two


def round_length(players: int, dashes: bool) -> int:
    """Actions in one round at most: the opening and setup, then at most two turns per tile (one
    that draws it, one that turns a tile face up once the pile is empty), each turn a draw, a miss,
    a stop, a placement and a reveal, plus one correct guess per tile."""
    tiles = len(full_set(dashes))
    return 2 * players + 2 + 2 * tiles * 5 + tiles


class SlotMask:
    """The ``legal_mask`` fast path: the legal slots of the seat to move by arithmetic on the
    state, from the same helpers the legal actions come from. A guess step's slots are one run of
    colour x value slots per face-down tile of each target, in the templates' order; a placement's
    and an opening's are one run too. The setup step (``ready``) goes through the action space."""

    def __init__(self, space: ActionSpace, players: int, options: Any) -> None:
        self.space, self.row = space, longest_row(players, options.dashes)
        values = tile_values(options.dashes)
        self.run = len(COLORS) * len(values)
        self.first_guess = space.index(
            {"type": "guess", "target": 0, "index": 0, "color": COLORS[0], "value": values[0]}
        )
        self.stop = space.index({"type": "stop"})
        self.first_place = space.index({"type": "place", "index": 0})
        self.first_reveal = space.index({"type": "reveal", "index": 0})
        self.first_opening = space.index({"type": "opening", "black": 0})
        self.deck_draw = space.index({"type": "draw"}) if options.draw == "deck" else None
        self.color_draw = (
            {color: space.index({"type": "draw", "color": color}) for color in COLORS}
            if options.draw == "classic"
            else {}
        )
        self.empty = np.zeros(space.size, dtype=np.int8)  # copied: cheaper than a new zeros array

    def __call__(self, game: Any, seat: int) -> np.ndarray:
        phase = game.phase
        mask = self.empty.copy()
        if phase == "guess":
            self.guesses(mask, game, seat)
        elif phase == "draw":
            mask[self.draw_slots(game)] = 1
        elif phase == "place":
            places = game._places()
            mask[self.first_place + places.start : self.first_place + places.stop] = 1
        elif phase == "reveal":
            mask[[self.first_reveal + index for index, tile in enumerate(game.rows[seat]) if not tile.revealed]] = 1
        elif phase == "opening":
            low, high = game._opening_range()
            mask[self.first_opening + low : self.first_opening + high + 1] = 1
        else:
            return self.space.mask(game.legal_actions(seat))
        return mask

    def draw_slots(self, game: Any) -> list[int]:
        if self.deck_draw is not None:
            return [self.deck_draw]
        return [self.color_draw[color] for color in game._colors_left()]

    def guesses(self, mask: np.ndarray, game: Any, seat: int) -> None:
        for target in game._targets(seat):
            for index, tile in enumerate(game.rows[target]):
                if not tile.revealed:
                    start = self.first_guess + (target * self.row + index) * self.run
                    mask[start : start + self.run] = 1
        mask[self.stop] = 1 if game.hits else 0


DYNAMICS: set[Dynamics] = {"sequential"}
DYNAMICS_WITH_SIMULTANEOUS: set[Dynamics] = {"sequential", "simultaneous"}  # some steps ask every seat at once


def declare(players: int, options: Any) -> Nature:
    simultaneous = options.draw == "classic" or options.dashes or options.memory
    chance: tuple[str, ...] = ("first",) if options.first is None else ()
    chance += ("draw",) if options.draw == "classic" else ("shuffle",)
    chance += ("place",) if options.clock else ()  # where a timeout puts the drawn tile
    actions = ActionSpace(action_templates(players, options))
    return Nature(
        dynamics=frozenset(DYNAMICS_WITH_SIMULTANEOUS if simultaneous else DYNAMICS),
        actions=actions,
        max_length=options.rounds * round_length(players, options.dashes),
        utility="win_share",
        chance=chance,
        max_chance_outcomes=max(players, len(full_set(options.dashes))),
        legal_mask=SlotMask(actions, players, options),
    )

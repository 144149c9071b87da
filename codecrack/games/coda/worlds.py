"""Sample a world one seat cannot tell from the real game: what OpenSpiel's IS-MCTS needs.

The seat's belief (:mod:`.belief`) gives exact counts of the consistent assignments of the
tiles it cannot see; drawing one hidden tile at a time from those counts, each conditioned on
the ones already drawn, picks every consistent world with equal probability. The sampled values
are written into a copy of the game, and the tiles left over form its pile (in a random order).
While opponents still arrange their rows (the dash and memory variants' setup) there is no
sampling: their rows are not even seen yet.

>>> import random, codecrack
>>> game = codecrack.new_game("coda", players=2, seed=3, draw="deck")
>>> world = resample(game, 0, random.Random(1))
>>> world.view(0) == game.view(0), world.view(1) == game.view(1)
(True, False)
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .belief import solve
from .observe import position_from_view, value_name
from .tiles import Tile, full_set

if TYPE_CHECKING:
    from .rules import CodaGame


def resample(game: CodaGame, seat: int, rng: random.Random) -> CodaGame:
    """A copy of ``game`` whose hidden tiles are redrawn among the worlds ``seat`` finds possible."""
    view = game.view(seat)
    if any(tiles and not shown for tiles, shown in zip(game.rows, view["rows"])) or any(
            hand for other, hand in enumerate(game.unplaced) if other != seat):
        raise NotImplementedError("no world sampling while opponents still arrange their rows")
    position = position_from_view(view)
    drawn: dict[tuple[int, int], int | str] = {}
    for row, tiles in enumerate(position.rows):
        for index, tile in enumerate(tiles):
            if tile.value is None:
                counts = np.asarray(solve(position).counts[row][index], dtype=float)
                value = int(np.searchsorted(np.cumsum(counts), rng.random() * counts.sum(), side="right"))
                position.rows[row][index] = replace(tile, value=value)
                drawn[row, index] = value_name(value)
    world = game.clone()
    for (row, index), value in drawn.items():
        world.rows[row][index].value = value
    _refill_pile(world, seat, rng)
    return world


def _refill_pile(world: CodaGame, seat: int, rng: random.Random) -> None:
    """The pile becomes every tile not in a row or a hand; a drawn tile ``seat`` has not seen (not
    its own, not turned face up by a miss) is swapped for one of the same colour from it."""
    held = [tile for row in world.rows for tile in row] + [tile for hand in world.unplaced for tile in hand]
    seen = world.drawn is not None and (seat == world.current or world.drawn_face_up)
    if seen:
        held.append(world.drawn)
    taken = {(tile.color, tile.value) for tile in held}
    pile = [tile for tile in full_set(world.options.dashes) if (tile.color, tile.value) not in taken]
    rng.shuffle(pile)
    if world.drawn is not None and not seen:
        same = next(i for i, tile in enumerate(pile) if tile.color == world.drawn.color)
        replacement = pile.pop(same)
        world.drawn = Tile(replacement.color, replacement.value, world.drawn.id, world.drawn.revealed)
    world.pile = pile

"""Sample worlds one seat cannot tell from the real game, for ``hard``'s playouts and for
OpenSpiel's IS-MCTS.

The seat's belief (:mod:`.belief`) gives exact counts of the consistent assignments of the
tiles it cannot see. :func:`sample_values` draws one hidden tile at a time from those counts,
each conditioned on the ones already drawn, so every consistent world has the same chance.
The sampled values then go into a game in one of two ways:

* :func:`world_game` builds a one-round game from the seat's view alone (what an agent has);
* :func:`resample` writes them into a copy of the real game (what OpenSpiel's IS-MCTS has).

Either way the tiles nobody shows form the pile, in a random order. While opponents still
arrange their rows (the dash and memory variants' setup) there is no sampling: their rows are
not even seen yet.

>>> import random, codecrack
>>> game = codecrack.new_game("coda", players=2, seed=3, draw="deck")
>>> world = resample(game, 0, random.Random(1))
>>> world.view(0) == game.view(0), world.view(1) == game.view(1)
(True, False)
>>> view = game.view(0)
>>> position = position_from_view(view)
>>> world = world_game(view, sample_values(position, solve(position), random.Random(1)), random.Random(2))
>>> world.view(0)["rows"] == view["rows"]
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from ...core.frozen import frozen
from .belief import Belief, Position, solve
from .observe import position_from_view, value_name
from .rules import CodaGame
from .search import with_value
from .tiles import Tile, full_set

View = dict[str, Any]
Values = dict[tuple[int, int], int]  # (seat, index) -> sampled belief value (0-11 or DASH)


def sample_values(position: Position, belief: Belief, rng: random.Random) -> Values:
    """One world drawn exactly from ``belief`` (the exact belief of ``position``): a value for
    every tile the position's observer cannot see, row by row."""
    values: Values = {}
    places = [(s, i) for s, row in enumerate(position.rows) for i, tile in enumerate(row) if tile.value is None]
    for n, (s, i) in enumerate(places):
        weights = belief.chances(s, i)
        value = rng.choices(range(len(weights)), weights=weights)[0]
        values[(s, i)] = value
        if n + 1 < len(places):
            position = with_value(position, s, i, value)
            belief = solve(position)
    return values


def resample(game: CodaGame, seat: int, rng: random.Random) -> CodaGame:
    """A copy of ``game`` whose hidden tiles are redrawn among the worlds ``seat`` finds possible."""
    view = game.view(seat)
    if any(tiles and not shown for tiles, shown in zip(game.rows, view["rows"])) or any(
        hand for other, hand in enumerate(game.unplaced) if other != seat
    ):
        raise NotImplementedError("no world sampling while opponents still arrange their rows")
    position = position_from_view(view)
    world = game.clone()
    for (row, index), value in sample_values(position, solve(position), rng).items():
        world.rows[row][index].value = value_name(value)
    _refill_pile(world, seat, rng)
    return world


def world_game(view: View, values: Values, rng: random.Random) -> CodaGame:
    """A one-round game at the seat's decision point, with ``values`` in the hidden places.

    The rows, the public history, the drawn tile, the hits this turn and who is out are the
    view's; the tiles nobody shows are shuffled into the pile with ``rng``.
    """
    options = {k: v for k, v in view["options"].items() if k != "rounds"}
    game = CodaGame(players=view["players"], seed=rng.getrandbits(32), **options)
    rows = []
    for s, row in enumerate(view["rows"]):
        tiles = []
        for i, tile in enumerate(row):
            value = tile["value"] if tile["value"] is not None else value_name(values[(s, i)])
            tiles.append(Tile(tile["color"], value, tile["id"], tile["revealed"]))
        rows.append(tiles)
    drawn = view["drawn"]
    drawn_tile = Tile(drawn["color"], drawn["value"]) if drawn else None
    held = [t for row in rows for t in row] + ([drawn_tile] if drawn_tile else [])
    seats = set(range(view["players"]))
    game.rows, game.pile, game.drawn, game.drawn_face_up = (
        rows,
        _unseen(held, game.options.dashes, rng),
        drawn_tile,
        False,
    )
    game.next_id = [max((t.id for t in row), default=-1) + 1 for row in rows]
    game.unplaced = [[] for _ in seats]
    game.shown, game.opened, game.ready = [True] * len(seats), set(seats), set(seats)
    game.eliminated = list(view["eliminated"])
    game.history = [frozen(event) for event in view["history"]]
    game.round, game.current, game.hits, game.phase = view["round"], view["current"], view["hits_this_turn"], "guess"
    return game


def _unseen(held: Iterable[Tile], dashes: bool, rng: random.Random) -> list[Tile]:
    """Every tile of the set that is not ``held``, shuffled with ``rng``: a pile."""
    taken = {(tile.color, tile.value) for tile in held}
    pile = [tile for tile in full_set(dashes) if (tile.color, tile.value) not in taken]
    rng.shuffle(pile)
    return pile


def _refill_pile(world: CodaGame, seat: int, rng: random.Random) -> None:
    """The pile becomes every tile not in a row or a hand; a drawn tile ``seat`` has not seen (not
    its own, not turned face up by a miss) is swapped for one of the same colour from it."""
    held = [tile for row in world.rows for tile in row] + [tile for hand in world.unplaced for tile in hand]
    seen = world.drawn is not None and (seat == world.current or world.drawn_face_up)
    if world.drawn is not None and seen:
        held.append(world.drawn)
    pile = _unseen(held, world.options.dashes, rng)
    if world.drawn is not None and not seen:
        same = next(i for i, tile in enumerate(pile) if tile.color == world.drawn.color)
        replacement = pile.pop(same)
        world.drawn = Tile(replacement.color, replacement.value, world.drawn.id, world.drawn.revealed)
    world.pile = pile

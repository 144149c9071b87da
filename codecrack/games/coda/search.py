"""What the Coda agents compute from beliefs: guesses and their odds, how exposed a row is,
and what a hit, a miss, a stop or a reveal would change.

All of it starts from one seat's view (through :mod:`.observe`) and the exact counts of
:mod:`.belief`; nothing here touches a game object.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .belief import ANY, DASH, Belief, Position, Tile, key, solve
from .observe import COLOR_NAMES, COLORS, value_code, value_name
from .tiles import places_between


@dataclass(frozen=True)
class Guess:
    """A candidate guess: tile ``index`` of seat ``target`` holds ``value``, with chance ``p``."""

    target: int
    index: int
    color: int
    value: int
    p: float

    def action(self) -> dict[str, Any]:
        return {
            "type": "guess",
            "target": self.target,
            "index": self.index,
            "color": COLOR_NAMES[self.color],
            "value": value_name(self.value),
        }


def targets(view: dict[str, Any], out: frozenset[int] = frozenset()) -> list[int]:
    """Opponents still in the round (``out``: seats assumed eliminated in a lookahead)."""
    gone = set(view["eliminated"]) | out
    return [s for s in range(view["players"]) if s != view["seat"] and s not in gone]


def hidden(position: Position, seat: int) -> list[int]:
    """Indices of ``seat``'s tiles whose value the position's observer does not know."""
    return [i for i, tile in enumerate(position.rows[seat]) if tile.value is None]


def guesses(position: Position, belief: Belief, seats: list[int]) -> list[Guess]:
    """Every guess on ``seats`` with a non-zero chance, most likely first (ties: leftmost)."""
    found: list[Guess] = []
    for target in seats:
        for index in hidden(position, target):
            probs = belief.probs[target][index]
            color = position.rows[target][index].color
            found.extend(Guess(target, index, color, int(v), float(probs[v])) for v in np.flatnonzero(probs > 0))
    found.sort(key=lambda g: (-g.p, g.target, g.index, g.value))
    return found


def likeliest(position: Position, belief: Belief, seats: list[int]) -> list[Guess]:
    """The guesses of :func:`guesses` that share the highest chance, in the same order (without
    listing and sorting all the others)."""
    best = 0.0
    top: list[Guess] = []
    for target in seats:
        for index in hidden(position, target):
            chance, values = belief.top(target, index)
            if chance >= best and chance > 0:
                found = [Guess(target, index, position.rows[target][index].color, v, chance) for v in values]
                top = found if chance > best else top + found
                best = chance
    return top


def best_per_tile(options: list[Guess]) -> list[Guess]:
    """The most likely value of each tile, in order of likelihood."""
    seen, best = set(), []
    for guess in options:
        if (guess.target, guess.index) not in seen:
            seen.add((guess.target, guess.index))
            best.append(guess)
    return best


def cover(position: Position, belief: Belief, seat: int) -> float:
    """How hard ``seat``'s row still is to read for the position's observer: the sum over its
    unknown tiles of the chance that the best guess on that tile misses (0 when all are certain)."""
    return float(sum(1.0 - belief.probs[seat][i].max() for i in hidden(position, seat)))


def with_value(position: Position, seat: int, index: int, value: int) -> Position:
    """The position after tile ``index`` of ``seat`` turned out to hold ``value``."""
    rows = list(position.rows)
    row = list(rows[seat])
    row[index] = replace(row[index], value=value)
    rows[seat] = row
    return replace(position, rows=rows)


def with_insert(position: Position, seat: int, index: int, tile: Tile) -> Position:
    """The position after ``tile`` entered ``seat``'s row at ``index``."""
    rows = list(position.rows)
    rows[seat] = [*rows[seat][:index], tile, *rows[seat][index:]]
    return replace(position, rows=rows)


def landing_places(values: list[int | None], colors: list[int], color: int, value: int) -> list[int]:
    """Where a tile may enter a row whose values are ``values`` (:data:`DASH` for a dash, ``None``
    if forgotten): anywhere for a dash; for a number, between the known numbers around its
    sorted place, on either side of any tiles in between.

    >>> landing_places([1, DASH, 7], [0, 1, 1], 1, 3), landing_places([1, 7], [0, 1], 0, DASH)
    ([1, 2], [0, 1, 2])
    """
    if value == DASH:
        return list(range(len(values) + 1))
    keys = [None if v is None or v == DASH else key(c, v) for v, c in zip(values, colors)]
    return list(places_between(keys, key(color, value)))


def own_values(view: dict[str, Any], memory: dict[int, int]) -> list[int | None]:
    """The seat's own row values as it sees or remembers them (``None`` if not pinned down)."""
    values = []
    for tile in view["rows"][view["seat"]]:
        mask = memory.get(tile["id"], 0)
        if tile["value"] is not None:
            values.append(value_code(tile["value"]))
        elif mask and mask & (mask - 1) == 0:
            values.append(mask.bit_length() - 1)
        else:
            values.append(None)
    return values


def drawn_tile(view: dict[str, Any]) -> tuple[int, int] | None:
    """The (colour, value) of the tile this seat drew this turn, if it holds one."""
    drawn = view.get("drawn")
    value = value_code(drawn.get("value")) if drawn else None
    if view.get("current") != view["seat"] or value is None:
        return None
    return COLORS[view["drawn"]["color"]], value


def exposure_after(public: Position, view: dict[str, Any], index: int, color: int, value: int | None) -> float:
    """Cover of this seat's row, as anyone may read it, after a tile enters at ``index``
    (face-down when ``value`` is ``None``, else face-up with that value)."""
    seat = view["seat"]
    position = with_insert(public, seat, index, Tile(color, value, ANY))
    return cover(position, solve(position), seat)


def draw_outlook(view: dict[str, Any], position: Position, belief: Belief, color: int) -> float:
    """Expected best hit chance of the turn's first guess after drawing a tile of ``color``:
    each value the pile may hold, weighted by the chance that it is there, then counted again
    with that value known to be in hand."""
    seats = targets(view)
    held = np.zeros(12)
    for s, row in enumerate(position.rows):
        for i, tile in enumerate(row):
            if tile.color == color:
                held += belief.probs[s][i][:12]
    free = np.clip(1.0 - held, 0.0, None)
    seen = {v for c, v in position.elsewhere if c == color}
    expected = 0.0
    for value in np.flatnonzero(free > 1e-12):
        if value in seen:
            continue
        after = solve(Position(position.rows, position.dashes, position.elsewhere | {(color, int(value))}))
        options = guesses(position, after, seats) if after.total else []
        expected += free[value] * (options[0].p if options else 0.0)
    return float(expected / max(free.sum(), 1e-12))

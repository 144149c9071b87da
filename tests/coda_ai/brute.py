"""Brute force for the belief tests: enumerate every world, check every rule directly."""

from __future__ import annotations

import random

from codecrack.games.coda.belief import ANY, DASH, Position, Tile, key
from codecrack.games.coda.tiles import places_between


def brute_counts(position: Position) -> tuple[int, dict[tuple[int, int], dict[int, int]]]:
    """Total consistent worlds and, per hidden tile, how many give it each value."""
    rows = position.rows
    hidden = [(r, i) for r, row in enumerate(rows) for i, t in enumerate(row) if t.value is None]
    seen = set(position.elsewhere) | {(t.color, t.value) for row in rows for t in row if t.value is not None}
    values = list(range(12)) + ([DASH] if position.dashes else [])
    total = 0
    counts = {place: {} for place in hidden}

    def consistent(world: dict[tuple[int, int], int]) -> bool:
        for r, row in enumerate(rows):
            full = [t.value if t.value is not None else world[(r, i)] for i, t in enumerate(row)]
            numbered = [key(t.color, v) for t, v in zip(row, full) if v != DASH]
            if numbered != sorted(numbered) or len(set(numbered)) != len(numbered):
                return False
        return True

    def extend(at: int, world: dict[tuple[int, int], int], used: set[tuple[int, int]]) -> None:
        nonlocal total
        if at == len(hidden):
            if consistent(world):
                total += 1
                for place, value in world.items():
                    counts[place][value] = counts[place].get(value, 0) + 1
            return
        r, i = hidden[at]
        tile = rows[r][i]
        for value in values:
            if (tile.color, value) in used or (tile.color, value) in seen or not tile.allowed >> value & 1:
                continue
            world[(r, i)] = value
            used.add((tile.color, value))
            extend(at + 1, world, used)
            used.discard((tile.color, value))
        world.pop((r, i), None)

    extend(0, {}, set())
    return total, counts


def random_position(rng: random.Random, dashes: bool, max_hidden: int = 4) -> Position:
    """Rows dealt and grown by the real placement rules (a dash anywhere, a number at one of its
    sorted places, either side of a dash), then partly hidden, with random evidence."""
    universe = [(c, v) for c in (0, 1) for v in range(12)] + ([(0, DASH), (1, DASH)] if dashes else [])
    rng.shuffle(universe)
    rows = []
    for _ in range(rng.randint(1, 3)):
        opening = [universe.pop() for _ in range(rng.randint(1, 3))]
        row = sorted((t for t in opening if t[1] != DASH), key=lambda t: key(*t))
        for dash in (t for t in opening if t[1] == DASH):
            row.insert(rng.randint(0, len(row)), dash)
        for _ in range(rng.randint(0, 3)):
            tile = universe.pop()
            if tile[1] == DASH:
                at = rng.randint(0, len(row))
            else:
                at = rng.choice(places_between([None if v == DASH else key(c, v) for c, v in row], key(*tile)))
            row.insert(at, tile)
        rows.append(row)
    hidden_left = max_hidden
    built = []
    for row in rows:
        tiles = []
        for color, value in row:
            if hidden_left and rng.random() < 0.7:
                hidden_left -= 1
                allowed = ANY
                for wrong in rng.sample(range(13), rng.randint(0, 4)):
                    if wrong != value or rng.random() < 0.1:
                        allowed &= ~(1 << wrong)
                tiles.append(Tile(color, None, allowed))
            else:
                tiles.append(Tile(color, value, ANY))
        built.append(tiles)
    elsewhere = frozenset(universe[-1:]) if rng.random() < 0.5 else frozenset()
    return Position(built, dashes, elsewhere)

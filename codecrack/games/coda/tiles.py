"""Coda tiles: colours, values, the sort order, and where a numbered tile lands in a row.

>>> row = [Tile("black", 1), Tile("white", DASH), Tile("white", 7)]
>>> list(sorted_places(row, Tile("white", 3))), list(sorted_places(row, Tile("black", 0)))
([1, 2], [0])
>>> label("black", 5), label("white", DASH), label("white", None)
('B5', 'W-', 'W?')
>>> parse_tile("b5"), parse_tile("W-"), parse_tile("white 11")
(('black', 5), ('white', '-'), ('white', 11))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import IllegalAction
from ...i18n import N_

BLACK, WHITE = "black", "white"
COLORS = (BLACK, WHITE)
DASH = "-"
NUMBERS = tuple(range(12))
HIGHEST = NUMBERS[-1]

Value = int | str


def hand_size(players: int) -> int:
    """The tiles each seat takes at the opening: three with four players, else four."""
    return 3 if players == 4 else 4


@dataclass(slots=True)
class Tile:
    """One tile. ``id`` is set when the tile enters a row (unique within that row)."""

    color: str
    value: Value
    id: int = -1
    revealed: bool = False

    @property
    def is_dash(self) -> bool:
        return self.value == DASH

    def copy(self) -> Tile:
        return Tile(self.color, self.value, self.id, self.revealed)


def tile_values(dashes: bool) -> list[Value]:
    """The values of one colour's tiles: 0-11, plus the dash in the advanced game."""
    return [*NUMBERS, DASH] if dashes else list(NUMBERS)


def full_set(dashes: bool) -> list[Tile]:
    """All tiles of a game, black first, in value order."""
    return [Tile(color, value) for color in COLORS for value in tile_values(dashes)]


def color_counts(tiles: list[Tile]) -> dict[str, int]:
    """How many tiles of each colour, black first."""
    counts = dict.fromkeys(COLORS, 0)
    for tile in tiles:
        counts[tile.color] += 1
    return counts


def sort_key(tile: Tile) -> tuple[Value, int]:
    """Numbered tiles sort by value, black before white on equal values."""
    return (tile.value, COLORS.index(tile.color))


def sorted_places(row: list[Tile], tile: Tile) -> range:
    """Where a numbered tile may go: after every numbered tile that sorts before it and before
    every one that sorts after it. Dashes between those neighbours leave a choice of sides
    (RULINGS: "A numbered tile whose sorted place is next to a dash may go on either side of it:
    the owner chooses"); with no dash there, one place.
    """
    return places_between([None if other.is_dash else sort_key(other) for other in row], sort_key(tile))


def places_between(keys: list[Any], mine: Any) -> range:
    """The insertion indices between the last key below ``mine`` and the first above it
    (``None`` keys, dashes or unknown tiles, bound nothing).

    >>> places_between([1, None, 7], 3), places_between([1, 7], 9)
    (range(1, 3), range(2, 3))
    """
    low = max((index + 1 for index, other in enumerate(keys) if other is not None and other < mine), default=0)
    high = min((index for index, other in enumerate(keys) if other is not None and other > mine), default=len(keys))
    return range(low, high + 1)


def hidden_value_sum(row: list[Tile]) -> int:
    """Face value of the face-down tiles of a row (a dash counts 0): the round winner's bonus."""
    return sum(int(tile.value) for tile in row if not tile.revealed and not tile.is_dash)


def label(color: str, value: Value | None) -> str:
    """Short name of a tile: ``B5``, ``W-``; ``B?`` when the value is unknown."""
    return color[0].upper() + ("?" if value is None else str(value))


def parse_tile(text: str) -> tuple[str, Value]:
    """Read ``b5``, ``W11``, ``b-``, ``black 5`` or ``white-`` as (colour, value).

    Raises :class:`IllegalAction` (a ``ValueError``) with a readable message.
    """
    compact = "".join(text.lower().split())
    for color in COLORS:
        for prefix in (color, color[0]):
            if compact.startswith(prefix):
                rest = compact[len(prefix) :]
                if rest == DASH:
                    return color, DASH
                if rest.isdigit() and int(rest) <= HIGHEST:
                    return color, int(rest)
                raise IllegalAction(
                    N_("{text!r}: after the colour give a value 0-{high} or '-' (e.g. b5, w-)"), text=text, high=HIGHEST
                )
    raise IllegalAction(
        N_("{text!r} is not a tile: write a colour and a value, e.g. b5 or w11 (b- for a dash)"), text=text
    )

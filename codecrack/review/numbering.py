"""How a review's texts number seats and Coda tiles for people.

Seats count from 1, as the table page ("Seat 1") and the terminal name them
(:func:`codecrack.terminal.seats.shown`); a review's ``seat`` field and game records keep the
engine's 0. Coda tiles count from 0 by default, as the terminal's ``guess SEAT INDEX`` and the
indices it prints under a row; the web page, which shows rows without indices and says "tile 1"
for the leftmost, reviews inside ``tiles_counted_from(1)``. Like the language, the choice is a
context variable, so a review computed in a worker thread keeps its caller's.

>>> tile_number(0)
0
>>> with tiles_counted_from(1):
...     tile_number(0)
1
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..terminal.seats import shown as seat_number

__all__ = ["seat_number", "tile_number", "tiles_counted_from"]

_first_tile: ContextVar[int] = ContextVar("codecrack_review_first_tile", default=0)


def tile_number(index: int) -> int:
    """The number a reader sees for the tile at the engine's ``index`` in a row."""
    return index + _first_tile.get()


@contextmanager
def tiles_counted_from(first: int) -> Iterator[None]:
    token = _first_tile.set(first)
    try:
        yield
    finally:
        _first_tile.reset(token)

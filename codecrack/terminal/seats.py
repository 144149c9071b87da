"""Seat numbers at the terminal count from 1, as the web page names its seats ("Seat 1"); the
engine, game records and the JSON protocol count from 0. Every seat number the terminal shows or
reads goes through these helpers, so the two numberings meet only here.

>>> shown(0), seat_list([2, 0])
(1, '1, 3')
>>> typed("2", players=3)
1
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.errors import IllegalAction
from ..i18n import N_, _

SEAT = N_("seat {seat}")
NOT_A_SEAT = N_("{word} is not a seat: the seats are 1 to {last}")


def shown(seat: int) -> int:
    """The number the terminal shows for the engine's ``seat``."""
    return seat + 1


def seat_name(seat: int) -> str:
    """``seat 1`` for the engine's seat 0, in the reader's language."""
    return _(SEAT).format(seat=shown(seat))


def seat_list(seats: Iterable[int]) -> str:
    """``1, 3``: seats in order, as numbers a reader sees."""
    return ", ".join(str(shown(seat)) for seat in sorted(seats))


def typed(word: str, players: int) -> int:
    """The engine's seat for a seat number typed at the terminal (1 to ``players``)."""
    if not word.isdecimal() or not 1 <= int(word) <= players:
        raise IllegalAction(NOT_A_SEAT, word=repr(word), last=players)
    return int(word) - 1

"""A game lost by forfeit: a host ends it for seats that broke its rules (a bot's fault in the
arena, a move's time run out at a turn-based web table); the game's own rules never do."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


def forfeit_result(players: int, seats: Collection[int], kind: str) -> dict[str, Any]:
    """The result of a game that ``seats`` lost by forfeit (``kind``: why): every other seat shares the win.

    >>> forfeit_result(3, [1], "time")
    {'winners': [0, 2], 'scores': None, 'forfeit': {'seats': [1], 'kind': 'time'}}
    """
    winners = [seat for seat in range(players) if seat not in seats]
    return {"winners": winners, "scores": None, "forfeit": {"seats": sorted(seats), "kind": kind}}

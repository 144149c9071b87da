"""Tiny Guess's declared nature (read by ``Game.nature`` and codecrack's environments)."""

from __future__ import annotations

from typing import Any

from codecrack.core.nature import ActionSpace, Nature


def declare(players: int, options: Any) -> Nature:
    return Nature(
        dynamics=frozenset({"sequential"}),
        actions=ActionSpace([{"type": "guess", "value": v} for v in range(1, options.high + 1)]),
        max_length=players * options.high,  # every card can be guessed at each value once
        utility="win_share",
        chance=("deal", "first") if options.first is None else ("deal",),
        max_chance_outcomes=max(players, options.high),
    )

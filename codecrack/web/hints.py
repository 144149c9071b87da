"""Cracking-sheet hints: a game's belief engine run on the asking seat's own view, in a thread.

A game's provider is ``hint`` in its package's ``hints`` module: it takes ``view(seat)`` and
returns a JSON-able dict for that game's notes panel. There are no hints when the game's ``notes``
option is off.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from ..core.game import Game
from ..core.registry import game_part
from .work import Work

HintProvider = Callable[[dict[str, Any]], dict[str, Any]]


def provider(game: str) -> HintProvider | None:
    """The hint provider of ``game``, if its package has one."""
    found: HintProvider | None = game_part(game, "hints", "hint")
    return found


def hints_available(game: Game) -> bool:
    """Whether the notes panel may offer probabilities for this game."""
    return provider(game.name) is not None and getattr(game.options, "notes", True)


async def hint_for(game: Game, view: dict[str, Any], work: Work, pool: Executor) -> dict[str, Any] | None:
    """The hint for the seat whose ``view`` this is, or ``None`` (no provider, or notes are off);
    computed in ``pool``, or in the heavy tables' thread (:mod:`.work`)."""
    found = provider(game.name)
    if found is None or not getattr(game.options, "notes", True):
        return None
    return await work.run(game, found, view, light=pool)

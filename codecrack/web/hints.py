"""Cracking-sheet hints: a game's belief engine run on the asking seat's own view, in a thread.

Each provider takes ``view(seat)`` and returns a JSON-able dict for that game's notes panel.
There are no hints when the game's ``notes`` option is off.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from ..core.game import Game
from .work import Work

HintProvider = Callable[[dict[str, Any]], dict[str, Any]]

# game -> "module:function" of a provider that turns a view into a hint
PROVIDERS: dict[str, str] = {
    "coda": "codecrack.web.hint_providers:coda_hint",
    "coding": "codecrack.web.hint_providers:coding_hint",
    "alphacode": "codecrack.web.hint_providers:alphacode_hint",
}


def provider(game: str) -> HintProvider:
    module, _, name = PROVIDERS[game].partition(":")
    return getattr(importlib.import_module(module), name)


def hints_available(game: Game) -> bool:
    """Whether the notes panel may offer probabilities for this game."""
    return game.name in PROVIDERS and getattr(game.options, "notes", True)


async def hint_for(game: Game, view: dict[str, Any], work: Work, pool: Executor) -> dict[str, Any] | None:
    """The hint for the seat whose ``view`` this is, or ``None`` (no provider, or notes are off);
    computed in ``pool``, or in the heavy tables' thread (:mod:`.work`)."""
    if not hints_available(game):
        return None
    return await work.run(game, provider(game.name), view, light=pool)

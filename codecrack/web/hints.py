"""Cracking-sheet hints: a game's belief engine run on the asking seat's own view, in a thread.

A game's provider is ``hint`` in its package's ``hints`` module: it takes ``view(seat)`` and
returns a JSON-able dict for that game's notes panel. There are no hints when the game's ``notes``
option is off.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from ..core.options import GameOptions
from ..core.registry import game_part
from .work import FairPool, Work

if TYPE_CHECKING:
    from .table import LiveTable

HintProvider = Callable[[dict[str, Any]], dict[str, Any]]


def provider(game: str) -> HintProvider | None:
    """The hint provider of ``game``, if its package has one."""
    found: HintProvider | None = game_part(game, "hints", "hint")
    return found


def hints_available(game: str, options: GameOptions) -> bool:
    """Whether the notes panel may offer probabilities for ``game`` played with ``options``."""
    return provider(game) is not None and getattr(options, "notes", True)


async def hint_for(
    table: LiveTable, view: dict[str, Any], work: Work, pool: FairPool, of: Hashable
) -> dict[str, Any] | None:
    """The hint for the seat of ``table`` whose ``view`` this is, or ``None`` (no provider, or notes
    are off); computed in a worker process, within the budget (:class:`~codecrack.web.sandbox.OverBudget`
    past it, remembered under ``of``: what the view is of), from ``pool``'s thread or the heavy
    tables' (:mod:`.work`), in the table's turn."""
    found = provider(table.game.name)
    if found is None or not getattr(table.game.options, "notes", True):
        return None
    return await work.run_apart(table, of, found, view, light=pool)

"""The AI's work at a table (bot moves, hints, reviews): what a table's options may cost, and the
thread it runs in.

Each game says what one move, hint or review step costs at most with given options, as measured
(:meth:`~codecrack.core.options.GameOptions.work_cost`). A table whose options need more memory or
CPU time than the server's ``work_memory_mb`` and ``work_seconds`` is refused when it is created.
Tables whose work may take more than ``heavy_work_seconds`` think in one thread of their own, in
turn, so they never hold up the bots and hints of the other tables.
"""

from __future__ import annotations

import asyncio
import contextvars
import math
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.errors import OptionError
from ..core.game import Game
from ..core.lru import WORK_CACHE
from ..i18n import N_

if TYPE_CHECKING:
    from .config import WebConfig

MB = 2**20
T = TypeVar("T")


def check_work_cost(game: Game, config: WebConfig) -> None:
    """Raise :class:`OptionError` when ``game``'s options cost more than the server allows."""
    memory, seconds = game.options.work_cost()
    if memory <= config.work_memory_mb * MB and seconds <= config.work_seconds:
        return
    limits = {"limit_mb": config.work_memory_mb, "limit_seconds": f"{config.work_seconds:g}"}
    if math.isinf(memory) or math.isinf(seconds):
        raise OptionError(
            N_(
                "these options are too big for this server: the AI, hints and reviews were never "
                "measured on them (the limit is {limit_mb} MB and {limit_seconds} s per move)"
            ),
            **limits,
        )
    raise OptionError(
        N_(
            "these options are too big for this server: one AI move, hint or review would take "
            "about {mb} MB and {seconds} s; the limit is {limit_mb} MB and {limit_seconds} s"
        ),
        mb=round(memory / MB),
        seconds=f"{seconds:.1f}",
        **limits,
    )


class Work:
    """The threads the AI's work runs in: the light pool every table shares, and one thread for the
    heavy tables."""

    def __init__(self, config: WebConfig, light_workers: int = 2) -> None:
        self.config = config
        self.light = ThreadPoolExecutor(max_workers=light_workers, thread_name_prefix="codecrack-bot")
        self.heavy = ThreadPoolExecutor(max_workers=1, thread_name_prefix="codecrack-heavy")
        WORK_CACHE.resize(config.work_cache_mb * MB)

    def pool(self, game: Game, light: Executor | None = None) -> Executor:
        """Where ``game``'s work runs: the heavy thread, or ``light`` (default: the shared pool)."""
        if game.options.work_cost()[1] > self.config.heavy_work_seconds:
            return self.heavy
        return light or self.light

    async def run(self, game: Game, work: Callable[..., T], *args: Any, light: Executor | None = None) -> T:
        """``work(*args)`` in ``game``'s pool, in this context (the request's language)."""
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self.pool(game, light), context.run, work, *args)

    def close(self) -> None:
        self.light.shutdown(wait=False, cancel_futures=True)
        self.heavy.shutdown(wait=False, cancel_futures=True)

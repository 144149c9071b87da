"""Stopping background tasks at shutdown, bounded.

A cancel is only a request: a call into a library may take it for an error of its own (redis-py
can turn one into a timeout or a ``None`` reply) and the task then carries on, so one ``cancel()``
and an unbounded wait can hang a shutdown forever. :func:`stop_tasks` cancels again every turn,
and gives up with a warning after ``grace`` seconds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

log = logging.getLogger("codecrack.web")
TURN = 0.05  # seconds between cancels


async def stop_tasks(tasks: Iterable[asyncio.Task], grace: float = 5.0) -> None:
    """Cancel ``tasks`` until they end, for at most ``grace`` seconds."""
    pending = {task for task in tasks if not task.done()}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=TURN)
        if pending and loop.time() >= deadline:
            log.warning("%d task(s) did not stop within %.0f s: %s", len(pending), grace, pending)
            return

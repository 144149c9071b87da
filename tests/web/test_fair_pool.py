"""The AI threads' pool (codecrack/web/work.py): work whose waiter gave up (its table was unloaded,
the server shut down) still finishes quietly."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading

from codecrack.web.work import FairPool


def test_a_failure_whose_waiter_gave_up_is_not_logged_as_never_retrieved(caplog):
    """CI of 85342f8 logged ``ERROR ... Future exception was never retrieved`` (an ``OverBudget``)
    when a server shut down while a heavy table's bot was thinking."""
    release = threading.Event()

    def fails_late() -> None:
        release.wait(60)
        raise ValueError("late")

    async def give_up() -> None:
        pool = FairPool(1, "test-fair-pool")
        waiter = asyncio.ensure_future(pool.run(("client", "TABLE"), fails_late))
        while pool.free:
            await asyncio.sleep(0.01)
        waiter.cancel()
        release.set()
        while not pool.free:
            await asyncio.sleep(0.01)
        pool.shutdown(wait=True)

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(give_up())
        gc.collect()
    assert "never retrieved" not in caplog.text

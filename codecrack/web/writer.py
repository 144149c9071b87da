"""The server's one writer: every write of the web layer goes through one thread that
group-commits whatever is queued (the actions of many tables, seat claims, new tables) in one
transaction.

- A write is answered (its future resolved) only after its batch committed; a caller acknowledges
  and broadcasts only then.
- A write that fails (a unique ``(table, step)`` violation, a busy database) fails alone: the
  transaction is rolled back and the batch's other writes run again, in a new one. (Failures are
  rare, so this costs less than a savepoint around every write.)
- A failed commit fails every write of its batch: none of them is stored (the callers rebuild from
  what is stored).

Readers use other pooled connections; in SQLite's WAL mode they never block the writer.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from sqlalchemy.engine import Engine

log = logging.getLogger("codecrack.web")
T = TypeVar("T")
BATCH_LIMIT = 512  # writes in one transaction at most


@dataclass
class Write:
    """One queued write: ``change(db, *args)``, and the future of the loop that waits for it."""

    change: Callable[..., Any]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future


class Writer:
    """A thread that runs queued writes in batches, one transaction per batch."""

    def __init__(self, engine: Engine, batch_limit: int = BATCH_LIMIT) -> None:
        self.engine = engine
        self.batch_limit = batch_limit
        self.queue: queue.SimpleQueue[Write | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="codecrack-writer", daemon=True)
        self.thread.start()

    def submit(self, change: Callable[..., T], *args: Any) -> asyncio.Future:
        """Queue ``change(db, *args)``; the future holds its return value once it is committed."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.queue.put(Write(change, args, loop, future))
        return future

    async def write(self, change: Callable[..., T], *args: Any) -> T:
        """``change(db, *args)``, committed; raises what the change or the commit raised."""
        return await self.submit(change, *args)

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        self.queue.put(None)
        self.thread.join()

    # -- the writer thread --------------------------------------------------------------
    def _serve(self) -> None:
        while True:
            batch, stop = self._next_batch()
            if batch:
                self._commit(batch)
            if stop:
                return

    def _next_batch(self) -> tuple[list[Write], bool]:
        """Wait for a write, then take whatever else is queued (up to the batch limit)."""
        first = self.queue.get()
        if first is None:
            return [], True
        batch = [first]
        while len(batch) < self.batch_limit:
            try:
                more = self.queue.get_nowait()
            except queue.Empty:
                break
            if more is None:
                return batch, True
            batch.append(more)
        return batch, False

    def _commit(self, batch: list[Write]) -> None:
        outcomes: dict[int, tuple[bool, Any]] = {}
        pending = list(range(len(batch)))
        while pending:
            try:
                values = self._transaction(batch, pending)
            except _WriteFailed as failed:  # that write fails alone; the others run again
                outcomes[failed.index] = (False, failed.error)
                pending.remove(failed.index)
                continue
            except Exception as error:  # the commit failed: nothing of the batch is stored
                log.warning("a batch of %d writes failed: %s", len(pending), error)
                values = [(False, error)] * len(pending)
            outcomes.update(zip(pending, values))
            pending = []
        self._answer(batch, [outcomes[index] for index in range(len(batch))])

    def _transaction(self, batch: list[Write], indexes: list[int]) -> list[tuple[bool, Any]]:
        """The writes ``indexes`` of the batch in one transaction, committed; their return values."""
        values = []
        with self.engine.begin() as db:
            for index in indexes:
                write = batch[index]
                try:
                    values.append((True, write.change(db, *write.args)))
                except Exception as error:
                    raise _WriteFailed(index, error) from error
        return values

    @staticmethod
    def _answer(batch: list[Write], outcomes: list[tuple[bool, Any]]) -> None:
        """Resolve the futures, one call into each waiting event loop per batch."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, bool, Any]]] = {}
        for write, (ok, value) in zip(batch, outcomes):
            by_loop.setdefault(write.loop, []).append((write.future, ok, value))
        for loop, answers in by_loop.items():
            try:
                loop.call_soon_threadsafe(_resolve, answers)
            except RuntimeError:  # that loop is closed: nobody waits any more
                pass


class _WriteFailed(Exception):
    def __init__(self, index: int, error: Exception) -> None:
        super().__init__(str(error))
        self.index, self.error = index, error


def _resolve(answers: list[tuple[asyncio.Future, bool, Any]]) -> None:
    for future, ok, value in answers:
        if future.done():  # the waiter was cancelled
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

"""The server's one writer: every write of the web layer goes through one thread that
group-commits whatever is queued (the actions of many tables, seat claims, new tables) in one
transaction.

- A write is answered (its future resolved) only after its batch committed; a caller acknowledges
  and broadcasts only then.
- Writes of one kind queued one after another run as one step when the writer knows a step for
  many (``together``: the actions of many tables are stored by one ``INSERT`` and one
  ``UPDATE``), so a batch costs a few statements, not two per action.
- A write that fails (a unique ``(table, step)`` violation, a busy database) fails alone: the
  transaction is rolled back and the batch's other writes run again, in a new one, each on its
  own when the failure came from writes run together (so that the failing one is found). (Failures
  are rare, so this costs less than a savepoint around every write.)
- A failed commit fails every write of its batch: none of them is stored (the callers rebuild from
  what is stored).

Readers use other pooled connections; in SQLite's WAL mode they never block the writer.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine

from . import metrics

log = logging.getLogger("codecrack.web")
T = TypeVar("T")
BATCH_LIMIT = 512  # no more writes are added to a transaction once it holds this many
IDLE_SECONDS = 1.0  # on PostgreSQL, the writer's connection unused this long is checked out (pinged) again


@dataclass
class Write:
    """One queued write: ``change(db, *args)``, and the future of the loop that waits for it."""

    change: Callable[..., Any]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future


class Writer:
    """A thread that runs queued writes in batches, one transaction per batch. ``together`` maps a
    write step to a step that does many of them at once (``many(db, [args, ...])``, returning
    nothing): consecutive writes of that step are run through it."""

    def __init__(
        self,
        engine: Engine,
        batch_limit: int = BATCH_LIMIT,
        together: dict[Callable[..., Any], Callable[..., None]] | None = None,
    ) -> None:
        self.engine = engine
        self.batch_limit = batch_limit
        self.together = together or {}
        self.queue: queue.SimpleQueue[list[Write] | None] = queue.SimpleQueue()
        self.outboxes: dict[asyncio.AbstractEventLoop, list[Write]] = {}  # this turn's writes, per loop
        self.connection: Connection | None = None  # the writer thread's own (see _begin)
        self.used_at = 0.0  # when it last began a transaction (time.monotonic)
        self.pending = 0  # writes submitted and not answered yet (the queue's depth, for readiness and metrics)
        self.waiting_since = 0.0  # when ``pending`` last rose from 0 (time.monotonic)
        self.answered_at = 0.0  # when the writer last answered a batch (time.monotonic)
        self.thread = threading.Thread(target=self._serve, name="codecrack-writer", daemon=True)
        self.thread.start()

    def submit(self, change: Callable[..., T], *args: Any) -> asyncio.Future:
        """Queue ``change(db, *args)``; the future holds its return value once it is committed.
        The writes of one turn of the event loop reach the writer thread together, at the start
        of its next turn: one wake-up of the thread for all of them, and bigger batches."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        outbox = self.outboxes.get(loop)
        if outbox is None:
            outbox = self.outboxes[loop] = []
            loop.call_soon(self._hand_over, loop)
        outbox.append(Write(change, args, loop, future))
        if not self.pending:
            self.waiting_since = time.monotonic()
        self.pending += 1
        return future

    def stalled_for(self) -> float:
        """Seconds the writer has had writes waiting without answering any (0 when it keeps up)."""
        if not self.pending:
            return 0.0
        return time.monotonic() - max(self.waiting_since, self.answered_at)

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        self.queue.put(self.outboxes.pop(loop))

    async def write(self, change: Callable[..., T], *args: Any) -> T:
        """``change(db, *args)``, committed; raises what the change or the commit raised."""
        return await self.submit(change, *args)

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        for loop in list(self.outboxes):
            self._hand_over(loop)
        self.queue.put(None)
        self.thread.join()

    # -- the writer thread --------------------------------------------------------------
    def _serve(self) -> None:
        while True:
            batch, stop = self._next_batch()
            if batch:
                self._commit(batch)
                self.answered_at = time.monotonic()
            if stop:
                if self.connection is not None:
                    self.connection.close()
                return

    def _next_batch(self) -> tuple[list[Write], bool]:
        """Wait for writes, then take whatever else is queued (while the batch is under its limit)."""
        first = self.queue.get()
        if first is None:
            return [], True
        batch = list(first)
        while len(batch) < self.batch_limit:
            try:
                more = self.queue.get_nowait()
            except queue.Empty:
                break
            if more is None:
                return batch, True
            batch.extend(more)
        return batch, False

    def _commit(self, batch: list[Write]) -> None:
        outcomes: dict[int, tuple[bool, Any]] = {}
        pending = list(range(len(batch)))
        merge = True
        while pending:
            try:
                values = self._transaction(batch, pending, merge)
            except _WriteFailed as failed:
                if failed.index is None:  # writes run together failed: run each alone to find which
                    merge = False
                    continue
                outcomes[failed.index] = (False, failed.error)  # that write fails alone; the others run again
                pending.remove(failed.index)
                continue
            except Exception as error:  # the commit failed: nothing of the batch is stored
                log.warning("a batch of %d writes failed: %s", len(pending), error)
                values = [(False, error)] * len(pending)
            outcomes.update(zip(pending, values))
            pending = []
        answers = [outcomes[index] for index in range(len(batch))]
        metrics.batch(len(batch), sum(1 for ok, _ in answers if not ok))
        self._answer(batch, answers)

    def _transaction(self, batch: list[Write], indexes: list[int], merge: bool) -> list[tuple[bool, Any]]:
        """The writes ``indexes`` of the batch in one transaction, committed; their return values.
        With ``merge``, runs of writes that have a step for many go through it."""
        values: list[tuple[bool, Any]] = []
        with self._begin() as db:
            for run in self._runs(batch, indexes) if merge else [[index] for index in indexes]:
                values.extend(self._run(db, batch, run))
        return values

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        """A transaction on the writer's own connection, kept from batch to batch: checking one out
        of the pool costs about a fifth of a small SQLite batch, and on PostgreSQL a ping (a round
        trip) per commit. A server's connection may be lost while it waits: on PostgreSQL, one
        unused for ``IDLE_SECONDS`` (the server may have restarted meanwhile) is checked out of the
        pool again, which pings it; and after any failure, on any database."""
        moment = time.monotonic()
        if (
            self.connection is not None
            and self.engine.dialect.name != "sqlite"
            and moment - self.used_at > IDLE_SECONDS
        ):
            self.connection.close()
            self.connection = None
        if self.connection is None:
            self.connection = self.engine.connect()
        self.used_at = moment
        try:
            with self.connection.begin():
                yield self.connection
        except BaseException:  # the pool rolls back whatever a failure left open (a failed COMMIT does)
            self.connection.close()
            self.connection = None
            raise

    def _runs(self, batch: list[Write], indexes: list[int]) -> list[list[int]]:
        """``indexes`` cut into runs: consecutive writes of one step that has a step for many,
        else single writes."""
        runs: list[list[int]] = []
        for index in indexes:
            change = batch[index].change
            if runs and change in self.together and batch[runs[-1][0]].change is change:
                runs[-1].append(index)
            else:
                runs.append([index])
        return runs

    def _run(self, db: Any, batch: list[Write], run: list[int]) -> list[tuple[bool, Any]]:
        """One write, or a run of writes through their step for many (which fails as a whole)."""
        first = batch[run[0]]
        try:
            if len(run) == 1:
                return [(True, first.change(db, *first.args))]
            self.together[first.change](db, [batch[index].args for index in run])
            return [(True, None)] * len(run)
        except Exception as error:
            raise _WriteFailed(run[0] if len(run) == 1 else None, error) from error

    def _answer(self, batch: list[Write], outcomes: list[tuple[bool, Any]]) -> None:
        """Resolve the futures, one call into each waiting event loop per batch."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, bool, Any]]] = {}
        for write, (ok, value) in zip(batch, outcomes):
            by_loop.setdefault(write.loop, []).append((write.future, ok, value))
        for loop, answers in by_loop.items():
            try:
                loop.call_soon_threadsafe(self._resolve, answers)
            except RuntimeError:  # that loop is closed: nobody waits any more
                pass

    def _resolve(self, answers: list[tuple[asyncio.Future, bool, Any]]) -> None:
        """On the waiting loop: the batch's answers, and ``pending`` down by as many (one call per
        batch rather than a done-callback per write)."""
        self.pending -= len(answers)
        for future, ok, value in answers:
            if future.done():  # the waiter was cancelled
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)


class _WriteFailed(Exception):
    """Write ``index`` of the batch failed (``None``: a run of writes done together failed)."""

    def __init__(self, index: int | None, error: Exception) -> None:
        super().__init__(str(error))
        self.index, self.error = index, error

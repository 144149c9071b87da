"""The AI's work at a table (bot moves, hints, reviews): what a table's options may cost, and where
it runs.

Each game says what one move, hint or review step costs at most with given options, as measured
(:meth:`~codecrack.core.options.GameOptions.work_cost`). A table whose options need more memory or
CPU time than the server's ``work_memory_mb`` and ``work_seconds`` is refused when it is created.
Tables whose work may take more than ``heavy_work_seconds`` are heavy: their work goes in turn
through one thread of its own, so it never holds up the bots and hints of the other tables, and on
from there to a worker process within the budget (:mod:`.sandbox`), bot moves included, so it
neither takes the GIL from the event loop nor runs past the budget: a move cut off is replaced by
the seed's legal move (:meth:`.bots.Bots.play`). The light tables' bot moves go the same way from
the light pool's threads, each to a worker of its own (a Coda agent and view pickle to at most
about 23 and 10 KB: a hop costs the server about a millisecond a move, where a move in a thread held
the GIL for up to 1.2 s), except a tutorial's scripted opponent, which reads its table as it moves
and thinks in the thread. Hints and reviews always run in a worker process. A thread that thinks
shares Python's GIL with the event loop: each time the loop waits for it, the thread keeps it up to
``work_switch_ms`` (Python's own 5 ms made every ``/healthz`` wait longer under AI load).

Each pool serves its waiting work fairly (:class:`FairPool`): by client (the address that made the
table; a table of no known client is a client of its own), the client served longest ago first, and
within a client by table the same way. So one client's many tables of bots wait behind each other,
never in front of another client's table: that table's next move waits for at most one move of each
other client, whatever their number of tables.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import math
import sys
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.agent import Agent
from ..core.errors import OptionError
from ..core.game import Game
from ..core.lru import WORK_CACHE
from ..i18n import N_
from .sandbox import Budget, OverBudget, Sandbox

if TYPE_CHECKING:
    from .config import WebConfig
    from .table import LiveTable

MB = 2**20
T = TypeVar("T")
WALL_PER_CPU = 12  # a call's wall-clock backstop in a worker, in CPU budgets (60 s by default)
REFUSALS_KEPT = 1024  # refusals for the budget remembered, the oldest forgotten first


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


Owner = tuple[str, str]  # (client, table code)


@dataclass
class Job:
    future: asyncio.Future
    context: contextvars.Context
    work: Callable[..., Any]
    args: tuple[Any, ...]


class FairPool:
    """``workers`` threads; the work waiting for one is served by owner (client, table): the client
    served longest ago (or never) first, then its table served longest ago. A waiter that gave up
    (cancelled: its table was unloaded) is dropped before it runs."""

    def __init__(self, workers: int, name: str) -> None:
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self.free = workers
        self.waiting: dict[Owner, deque[Job]] = {}
        self.running: Counter[Owner] = Counter()
        self.served_at: dict[Owner | str, int] = {}  # a client's or an owner's latest turn, while it has work
        self.turns = 0

    async def run(self, owner: Owner, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a thread when ``owner``'s turn comes, in this context (the request's language)."""
        loop = asyncio.get_running_loop()
        job = Job(loop.create_future(), contextvars.copy_context(), work, args)
        self.waiting.setdefault(owner, deque()).append(job)
        self._start(loop)
        return await job.future

    def _next(self) -> tuple[Owner, Job] | None:
        while self.waiting:
            clients = dict.fromkeys(client for client, _ in self.waiting)
            client = min(clients, key=lambda c: self.served_at.get(c, 0))
            owner = min((o for o in self.waiting if o[0] == client), key=lambda o: self.served_at.get(o, 0))
            jobs = self.waiting[owner]
            job = jobs.popleft()
            if not jobs:
                del self.waiting[owner]
            if job.future.done():
                self._forget(owner)
                continue
            self.turns += 1
            self.served_at[client] = self.served_at[owner] = self.turns
            return owner, job
        return None

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        while self.free:
            chosen = self._next()
            if chosen is None:
                return
            owner, job = chosen
            self.free -= 1
            self.running[owner] += 1
            try:
                thinking = loop.run_in_executor(self.executor, job.context.run, job.work, *job.args)
            except RuntimeError as error:  # shut down
                self._release(owner)
                if not job.future.done():
                    job.future.set_exception(error)
                continue
            thinking.add_done_callback(functools.partial(self._finished, loop, owner, job))

    def _finished(self, loop: asyncio.AbstractEventLoop, owner: Owner, job: Job, done: asyncio.Future[Any]) -> None:
        self._release(owner)
        if not done.cancelled():
            done.exception()  # retrieved even when the waiter gave up: nothing is logged for it
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif (error := done.exception()) is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(done.result())
        self._start(loop)

    def _release(self, owner: Owner) -> None:
        self.free += 1
        self.running[owner] -= 1
        self._forget(owner)

    def _forget(self, owner: Owner) -> None:
        """Drop the turns of an owner, and of its client, that have no work left."""
        if self.running[owner] or owner in self.waiting:
            return
        self.running.pop(owner, None)
        self.served_at.pop(owner, None)
        client = owner[0]
        if not any(o[0] == client for o in (*self.waiting, *self.running)):
            self.served_at.pop(client, None)

    def shutdown(self, wait: bool = False, cancel_futures: bool = True) -> None:
        self.executor.shutdown(wait=wait, cancel_futures=cancel_futures)


def decided(agent: Agent, view: dict[str, Any]) -> tuple[Any, Agent]:
    """``agent``'s action on ``view``, and the agent after it (from a worker process: a copy that
    moved on, whose random generator continues where the move left it)."""
    return agent.act(view), agent


class Work:
    """Where the AI's work runs: the light pool of threads every table shares, and one thread for the
    heavy tables; each serves the clients and their tables in turn (:class:`FairPool`). Hints,
    reviews and bot moves go on from their thread to a worker process, within the budget
    (:mod:`.sandbox`)."""

    def __init__(self, config: WebConfig, light_workers: int = 2) -> None:
        self.config = config
        self.light = FairPool(light_workers, "codecrack-bot")
        self.heavy = FairPool(1, "codecrack-heavy")
        WORK_CACHE.resize(config.work_cache_mb * MB)
        sys.setswitchinterval(config.work_switch_ms / 1000)
        seconds = config.work_seconds
        self.sandbox = Sandbox(
            Budget(config.work_memory_mb * MB, config.work_cache_mb * MB, seconds, WALL_PER_CPU * seconds)
        )
        self.refused: OrderedDict[Hashable, str] = OrderedDict()  # what passed the budget: its kind

    def is_heavy(self, game: Game) -> bool:
        return game.options.work_cost()[1] > self.config.heavy_work_seconds

    def pool(self, game: Game, light: FairPool | None = None) -> FairPool:
        """Where ``game``'s work runs: the heavy thread, or ``light`` (default: the shared pool)."""
        return self.heavy if self.is_heavy(game) else light or self.light

    async def run(self, table: LiveTable, work: Callable[..., T], *args: Any, light: FairPool | None = None) -> T:
        """``work(*args)`` for ``table`` in its game's pool, when its turn comes, in this context."""
        return await self.pool(table.game, light).run(table.owner, work, *args)

    async def run_apart(
        self, table: LiveTable, remember: Hashable, work: Callable[..., T], *args: Any, light: FairPool | None = None
    ) -> T:
        """:meth:`run`, the thread handing ``work(*args)`` on to a worker process within the budget
        (:class:`~codecrack.web.sandbox.OverBudget` past it): for hints and reviews. A refusal is
        remembered under ``remember`` (what the work is of: the same inputs cost the same), so
        asking again is refused at once."""
        if remember in self.refused:
            self.refused.move_to_end(remember)
            raise OverBudget(self.refused[remember], self.sandbox.budget)
        try:
            return await self.run(table, self.sandbox.call, work, *args, light=light)
        except OverBudget as over:
            self.refused[remember] = over.kind
            while len(self.refused) > REFUSALS_KEPT:
                self.refused.popitem(last=False)
            raise

    async def decide(
        self, table: LiveTable, agent: Agent, view: dict[str, Any], apart: bool = True
    ) -> tuple[Any, Agent]:
        """``agent``'s move on ``view`` and the agent after it, in a worker process within the budget
        (:class:`~codecrack.web.sandbox.OverBudget` past it), from a thread of the table's pool; with
        ``apart=False`` (an agent that reads its table as it moves, such as a tutorial's script, and
        so cannot be sent) in that thread itself."""
        if apart:
            return await self.run(table, self.sandbox.call, decided, agent, view)
        return await self.run(table, decided, agent, view)

    def close(self) -> None:
        self.light.shutdown()
        self.heavy.shutdown()
        self.sandbox.close()

"""Hints, reviews and heavy tables' bot moves in worker processes, each call within a budget of
memory and CPU time.

A hint or a review is a function of inputs that can be sent to another process (a seat's view; a
game's record and a seat), and so is a bot's move (its agent and the seat's view: the agent comes
back with the move), so they run in a worker process: the worker's address space is capped
(``RLIMIT_AS``: its size once started, plus ``work_memory_mb`` for a call and ``work_cache_mb`` for
the solvers' tables it keeps), and so is each call's CPU time (``RLIMIT_CPU``, set before each call
to the time the worker used so far plus ``work_seconds``, rounded up to a whole second, the
kernel's unit). A call past either ends its worker (a ``MemoryError``, after which the worker
exits; the kernel's ``SIGXCPU``; the kernel's OOM killer) and is refused with :class:`OverBudget`;
the next call starts a new worker. A call still running after ``wall_seconds`` (a worker that
waits instead of thinking) is ended the same way.

The thread that waits for a worker (a :class:`~codecrack.web.work.FairPool` thread) waits without
Python's GIL, so a hint's CPU no longer competes with the event loop or the bots for it. Workers
are forked from multiprocessing's fork server (forking the server's own process, which runs
threads, is unsafe), which has this module and the reviews imported: the fork server costs a
Python start once per server process. Each thread that calls has a worker of its own, which serves
its calls one after another and keeps the tables it built (within ``work_cache_mb``): the heavy
tables' thread makes their bot moves, hints and reviews in one worker, so a hint reads the table of
codes the table's bots built.
"""

from __future__ import annotations

import math
import multiprocessing
import resource
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from ..core.lru import WORK_CACHE
from ..i18n import N_, _, current, language

T = TypeVar("T")
WORKERS = multiprocessing.get_context("forkserver")  # forking this process, which runs threads, is unsafe
WORKERS.set_forkserver_preload([__name__, "codecrack.review"])
ENDED = 5.0  # seconds to wait for an ended worker to be gone
MB = 2**20
OVER_BUDGET = N_(
    "this needs more than the server allows for one hint or review ({limit_mb} MB and {limit_seconds} s of CPU)"
)


class OverBudget(Exception):
    """A call passed its budget (``kind``: ``"memory"`` or ``"time"``); its worker was ended."""

    def __init__(self, kind: str, budget: Budget) -> None:
        super().__init__(kind)
        self.kind = kind
        self.budget = budget

    def text(self) -> str:
        """Why, for the client, in this context's language."""
        limits = {"limit_mb": self.budget.memory_bytes // MB, "limit_seconds": f"{self.budget.cpu_seconds:g}"}
        return _(OVER_BUDGET).format(**limits)


class Closed(RuntimeError):
    """The sandbox was closed (the server is shutting down): no call runs."""

    def __init__(self) -> None:
        super().__init__("the sandbox is closed")


@dataclass(frozen=True)
class Budget:
    memory_bytes: int  # one call's, above the worker's size once started
    cache_bytes: int  # the solvers' tables the worker keeps between calls
    cpu_seconds: float  # one call's
    wall_seconds: float  # one call's, waiting included: a backstop


def address_space() -> int:
    """This process's virtual size in bytes (``VmSize``)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise OSError("no VmSize in /proc/self/status")


def capped(limit: int, current_hard: int) -> tuple[int, int]:
    """A soft limit ``limit`` under the process's hard limit, which stays."""
    if current_hard != resource.RLIM_INFINITY:
        limit = min(limit, current_hard)
    return limit, current_hard


def serve(connection: Connection, budget: Budget) -> None:
    """A worker's life: answer each ``(work, args, language)`` with ``("done", result)`` or
    ``("failed", error)``; after a ``MemoryError`` answer ``("memory", None)`` and exit."""
    WORK_CACHE.resize(budget.cache_bytes)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # ended by SIGXCPU: no core file
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, capped(address_space() + budget.memory_bytes + budget.cache_bytes, hard))
    while True:
        try:
            work, args, lang = connection.recv()
        except EOFError:  # the server is gone
            return
        used = resource.getrusage(resource.RUSAGE_SELF)
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        limit = math.ceil(used.ru_utime + used.ru_stime + budget.cpu_seconds)
        resource.setrlimit(resource.RLIMIT_CPU, capped(limit, hard))
        try:
            with language(lang):
                answer: tuple[str, Any] = ("done", work(*args))
        except MemoryError:
            WORK_CACHE.resize(0)  # room to answer
            connection.send(("memory", None))
            return
        except Exception as error:  # the caller's to handle, as if it had run in its own thread
            answer = ("failed", error)
        try:
            connection.send(answer)
        except Exception as error:  # an answer that cannot be sent
            connection.send(("failed", RuntimeError(f"the worker's answer cannot be sent: {error!r}")))


class Worker:
    def __init__(self, budget: Budget) -> None:
        self.connection, theirs = WORKERS.Pipe()
        self.process = WORKERS.Process(target=serve, args=(theirs, budget), name="codecrack-work", daemon=True)
        self.process.start()
        theirs.close()
        self.ending = threading.Lock()  # the caller's thread and the sandbox's close may end it at once

    def end(self) -> None:
        with self.ending:
            self.process.kill()
            self.process.join(ENDED)
            self.connection.close()


class Sandbox:
    """Worker processes for calls within ``budget``: one for each thread that calls (the hint thread
    and the heavy tables' one), started at its first call and again after one is ended."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.workers: dict[int, Worker] = {}  # by the ident of the thread they serve
        self.lock = threading.Lock()
        self.closed = False

    def call(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in this thread's worker, in this context's language; :class:`OverBudget`
        past the budget. Blocks the calling thread (never call it on the event loop)."""
        worker = self._worker()
        try:
            worker.connection.send((work, args, current()))
            if not worker.connection.poll(self.budget.wall_seconds):
                raise OverBudget("time", self.budget)
            status, value = worker.connection.recv()
        except (EOFError, OSError):  # ended by the kernel (SIGXCPU past the CPU time, else the OOM killer) or closed
            if self.closed:
                raise Closed() from None
            worker.process.join(ENDED)
            self._end(worker)
            raise OverBudget("time" if worker.process.exitcode == -signal.SIGXCPU else "memory", self.budget) from None
        except BaseException:
            self._end(worker)
            raise
        if status == "memory":
            self._end(worker)
            raise OverBudget("memory", self.budget)
        if status == "failed":
            raise value
        result: T = value
        return result

    def _worker(self) -> Worker:
        thread = threading.get_ident()
        with self.lock:
            if self.closed:
                raise Closed()
            if thread in self.workers:
                return self.workers[thread]
        worker = Worker(self.budget)
        with self.lock:
            if not self.closed:
                self.workers[thread] = worker
                return worker
        worker.end()
        raise Closed()

    def _end(self, worker: Worker) -> None:
        with self.lock:
            self.workers = {thread: kept for thread, kept in self.workers.items() if kept is not worker}
        worker.end()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            workers, self.workers = list(self.workers.values()), {}
        for worker in workers:
            worker.end()

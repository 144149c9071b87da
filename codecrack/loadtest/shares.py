"""One load step, its table slots shared among one or more client processes.

Each process plays its share of the slots on its own event loop (one Python process holding
thousands of sockets can be the limit of a step rather than the server). The step's clock starts
in every process at once (a barrier, once each has seated its first tables, with --open-first); each process counts
what happens after the warm-up and returns every latency, so that the merged percentiles are those
of all the step's actions, not an average of each process's percentiles.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import time
import traceback
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .players import OPENING_AT_ONCE, Browser, Pace, Slot, TableRate, Tally, accounts_of, play_tables
from .report import ServerWatch, ms, percentile, step_report
from .settings import LoadSettings
from .target import machine_cpu_seconds, websocket_base

START_TIMEOUT = 1800.0  # seconds a client process may take to open its first tables


@dataclass
class Share:
    """What one client process measured in one step: ``tally`` holds the latencies and bytes of
    the counted window (after the warm-up), and the errors and game ends of the whole step."""

    tally: Tally
    seconds: float  # the counted window
    cpu_seconds: float  # the process's CPU time (every thread) over the counted window
    lags: list[float] = field(default_factory=list)  # how late its event loop woke a timer, seconds (LoopLag)


@dataclass
class _Mark:
    """Where the counted window starts."""

    latencies: int
    received_bytes: int
    cpu_seconds: float
    at: float

    @classmethod
    def now(cls, tally: Tally) -> _Mark:
        return cls(len(tally.latencies), tally.received_bytes, time.process_time(), time.monotonic())


def slots_of(tables: int, processes: int, index: int) -> list[int]:
    """The table slots that client process ``index`` of ``processes`` plays (every slot keeps its
    own seeded choices, whatever the number of processes).

    >>> slots_of(5, 2, 0), slots_of(5, 2, 1)
    ([0, 2, 4], [1, 3])
    """
    return list(range(index, tables, processes))


def merged(shares: list[Share]) -> Tally:
    """One tally of every share's figures (every latency kept).

    >>> a = Tally([0.1, 0.3], {"x": 1}, 2, [], 0, 10)
    >>> b = Tally([0.2], {"x": 2, "y": 1}, 1, ["bad"], 1, 5)
    >>> merged([Share(a, 1.0, 0.1), Share(b, 1.0, 0.1)])
    Tally(latencies=[0.1, 0.3, 0.2], errors={'x': 3, 'y': 1}, games_valid=3, games_invalid=['bad'], games_cut=1, received_bytes=15, games_rated=0)
    """
    whole = Tally()
    for share in shares:
        part = share.tally
        whole.latencies.extend(part.latencies)
        for message, count in part.errors.items():
            whole.errors[message] = whole.errors.get(message, 0) + count
        whole.games_valid += part.games_valid
        whole.games_invalid.extend(part.games_invalid)
        whole.games_cut += part.games_cut
        whole.received_bytes += part.received_bytes
        whole.games_rated += part.games_rated
    return whole


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector off, then on again (as it was) and run once.

    A client process holds thousands of sockets and views, and its full collections stalled its
    event loop while freeing next to nothing: every action in flight then looked that much slower,
    a latency of the harness, not of the server (docs/notes/server-latency.md). The players make
    next to no reference cycles, so the collector waits for the end of the share."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
        gc.collect()


LAG_INTERVAL = 0.05  # seconds between the samples of a client process's event-loop lag


class LoopLag:
    """How late a client process's event loop wakes a timer, sampled every ``LAG_INTERVAL`` while
    it plays: a loop that lags delays the receipt of every state in flight, so a latency measured
    then is partly the client's own (``load_generator.loop_lag_ms`` in the report)."""

    def __init__(self) -> None:
        self.lags: list[float] = []

    async def sample(self, after: float) -> None:
        """Sample from ``after`` seconds from now (the warm-up's end) until cancelled."""
        await asyncio.sleep(after)
        clock = asyncio.get_running_loop().time
        while True:
            due = clock() + LAG_INTERVAL
            await asyncio.sleep(LAG_INTERVAL)
            self.lags.append(max(0.0, clock() - due))


async def play_share(settings: LoadSettings, url: str, slots: list[int], ready: Callable[[], Awaitable[Any]]) -> Share:
    """Play ``slots`` for the step (the garbage collector paused: :func:`collector_paused`)."""
    with collector_paused():
        return await _play_share(settings, url, slots, ready)


async def _play_share(settings: LoadSettings, url: str, slots: list[int], ready: Callable[[], Awaitable[Any]]) -> Share:
    """Seat ``slots``' first tables (with ``open_first``), await ``ready()`` (every process
    ready), then play the warm-up and the counted ``seconds``."""
    low, high = settings.pause()
    tables_per_minute, messages_per_second = settings.client_limits()
    pace = Pace(low, high, messages_per_second)
    tally = Tally()
    rate = TableRate(max(1, tables_per_minute // settings.client_processes))  # the address's limit, shared
    opening = asyncio.Semaphore(OPENING_AT_ONCE)  # this process's websocket handshakes in flight
    table_slots = [Slot(slot, settings.seed, opening) for slot in slots]
    seated = await _accounts(settings, url, slots)
    ws_base = websocket_base(url)
    if settings.open_first:
        await asyncio.gather(
            *(
                slot.seat_first(url, ws_base, settings.plan, pace, rate, tally, browsers)
                for slot, browsers in zip(table_slots, seated)
            )
        )
    await ready()
    began = time.monotonic()
    deadline = began + settings.warmup + settings.seconds
    marking = asyncio.create_task(_mark_after(settings.warmup, tally))
    lag = LoopLag()
    sampling = asyncio.create_task(lag.sample(settings.warmup))
    plays = [
        play_tables(url, ws_base, settings.plan, pace, rate, slot, settings.games, deadline, tally, browsers)
        for slot, browsers in zip(table_slots, seated)
    ]
    outcomes = await asyncio.gather(*plays, return_exceptions=True)
    mark = marking.result() if marking.done() else _Mark.now(tally)
    marking.cancel()
    sampling.cancel()
    for failure in (o for o in outcomes if isinstance(o, BaseException)):
        tally.error(f"{type(failure).__name__}: {failure}"[:300])
    counted = Tally(
        tally.latencies[mark.latencies :],
        tally.errors,
        tally.games_valid,
        tally.games_invalid,
        tally.games_cut,
        tally.received_bytes - mark.received_bytes,
        tally.games_rated,
    )
    return Share(counted, time.monotonic() - mark.at, time.process_time() - mark.cpu_seconds, lag.lags)


async def _mark_after(warmup: float, tally: Tally) -> _Mark:
    if warmup > 0:
        await asyncio.sleep(warmup)
    return _Mark.now(tally)


async def _accounts(settings: LoadSettings, url: str, slots: list[int]) -> list[list[Browser] | None]:
    """With ``accounts``, each slot's accounts, made and signed in before the step's clock starts
    (one slot after the other: each sign-up and sign-in hashes a password); else guests (None)."""
    if not settings.accounts:
        return [None] * len(slots)
    return [await accounts_of(url, slot, settings.plan.humans) for slot in slots]


def run_step(settings: LoadSettings, url: str, pid: int | None, tables: int) -> dict[str, Any]:
    """One step of ``tables`` table slots, in this process or shared among client processes."""
    if settings.client_processes == 1:
        return asyncio.run(_step_here(settings, url, pid, tables))
    return _step_in_processes(settings, url, pid, tables)


async def _step_here(settings: LoadSettings, url: str, pid: int | None, tables: int) -> dict[str, Any]:
    started = asyncio.Event()

    async def ready() -> None:
        started.set()

    playing = asyncio.ensure_future(play_share(settings, url, list(range(tables)), ready))
    done = asyncio.ensure_future(started.wait())
    await asyncio.wait({playing, done}, return_when=asyncio.FIRST_COMPLETED)
    done.cancel()

    async def shares() -> list[Share]:
        return [await playing]

    return await _measured(settings, pid, tables, shares())


async def _measured(
    settings: LoadSettings, pid: int | None, tables: int, shares: Awaitable[list[Share]]
) -> dict[str, Any]:
    """Watch the server over the counted window (from the end of the warm-up, which starts now)
    while ``shares`` play, then report the step."""
    playing = asyncio.ensure_future(shares)
    if settings.warmup > 0:
        await asyncio.wait({playing}, timeout=settings.warmup)
    watch = ServerWatch(pid)
    machine_before = machine_cpu_seconds()
    follower = asyncio.create_task(watch.follow())
    try:
        found = await playing
    finally:
        follower.cancel()
    machine = machine_cpu_seconds() - machine_before
    seconds = max(share.seconds for share in found)
    cpu = sum(share.cpu_seconds for share in found)
    lags = [lag for share in found for lag in share.lags]
    generator = {
        "processes": settings.client_processes,
        "cpu_seconds": round(cpu, 3),
        "cpu_percent": round(100 * cpu / seconds, 1) if seconds else None,
        "loop_lag_ms": {
            "p50": ms(percentile(lags, 0.5)),
            "p99": ms(percentile(lags, 0.99)),
            "max": ms(max(lags, default=None)),
        },
    }
    step = step_report(tables, tables * settings.plan.humans, seconds, merged(found), watch)
    server_cpu = step["server"]["cpu_seconds"] if step["server"] else 0.0
    # the whole machine's busy time over the window, and what neither the server nor the clients
    # used: another program's share of the cores (a measurement is quiet when it is near 0)
    busy = (
        {
            "cpu_percent": round(100 * machine / seconds, 1),
            "others_cpu_percent": round(100 * (machine - cpu - server_cpu) / seconds, 1),
        }
        if seconds
        else None
    )
    return {**step, "load_generator": generator, "machine": busy}


def _step_in_processes(settings: LoadSettings, url: str, pid: int | None, tables: int) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")  # no inherited event loop or threads
    count = settings.client_processes
    barrier = context.Barrier(count + 1, timeout=START_TIMEOUT)
    answers = context.Queue()
    processes = [
        context.Process(
            target=_share_process, daemon=True, args=(settings, url, slots_of(tables, count, index), barrier, answers)
        )
        for index in range(count)
    ]
    for process in processes:
        process.start()
    try:
        return asyncio.run(_gathered(settings, pid, tables, barrier, answers, count))
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()


async def _gathered(
    settings: LoadSettings, pid: int | None, tables: int, barrier, answers, count: int
) -> dict[str, Any]:
    """The parent's side: wait until every client process is ready, then measure while they play."""
    await asyncio.to_thread(barrier.wait)
    limit = START_TIMEOUT + settings.warmup + settings.seconds

    def collect() -> list[Share]:
        found = [answers.get(timeout=limit) for _ in range(count)]
        failed = [text for kind, text in found if kind == "failed"]
        if failed:
            raise RuntimeError(f"a client process failed:\n{failed[0]}")
        return [share for _, share in found]

    return await _measured(settings, pid, tables, asyncio.to_thread(collect))


def _share_process(settings: LoadSettings, url: str, slots: list[int], barrier, answers) -> None:
    """A client process: play the share, put ``("ok", share)`` or ``("failed", traceback)``."""
    try:
        share = asyncio.run(play_share(settings, url, slots, lambda: asyncio.to_thread(barrier.wait)))
        answers.put(("ok", share))
    except BaseException:
        barrier.abort()  # nobody waits for a process that will never be ready
        answers.put(("failed", traceback.format_exc()[-3000:]))

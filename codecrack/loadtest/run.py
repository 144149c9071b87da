"""One load run: for each number of tables, play for a bounded time and measure; report JSON."""

from __future__ import annotations

import asyncio
import os
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from .players import Pace, TablePlan, TableRate, Tally, play_tables
from .target import SPAWNED_LIMITS, SpawnedServer, require_loopback, sample_process, websocket_base

MAX_SECONDS = 3600.0  # one step never runs longer than this
MAX_TABLES = 5000
P95_TARGET_MS = 100.0


@dataclass
class LoadSettings:
    url: str = "http://127.0.0.1:8000"
    tables: list[int] = field(default_factory=lambda: [4])
    seconds: float = 20.0  # per step
    games: int = 0  # per table slot; 0: back to back until the step's time is up
    pace: str = "flat"  # "flat" or "human"
    human_pause: tuple[float, float] = (2.0, 5.0)
    seed: int = 0
    plan: TablePlan = field(default_factory=TablePlan)
    spawn: bool = False
    db: str | None = None  # for a spawned server
    server_pid: int | None = None
    allow_remote: bool = False
    # the server's per-address limits, respected by the harness (a spawned server gets higher ones)
    tables_per_minute: int = 20
    connections_per_address: int = 32
    messages_per_second: float = 20.0

    def client_limits(self) -> tuple[int, float]:
        """Tables per minute and messages per second per socket the harness keeps to."""
        if self.spawn:
            return int(SPAWNED_LIMITS["CODECRACK_TABLES_PER_MINUTE"]), float(SPAWNED_LIMITS["CODECRACK_MESSAGES_PER_SECOND"])
        return self.tables_per_minute, self.messages_per_second

    def check(self) -> None:
        if not self.allow_remote:
            require_loopback(self.url)
        if not 0 < self.seconds <= MAX_SECONDS:
            raise ValueError(f"seconds must be in (0, {MAX_SECONDS:.0f}]")
        if not self.tables or not all(0 < n <= MAX_TABLES for n in self.tables):
            raise ValueError(f"every number of tables must be in [1, {MAX_TABLES}]")
        if self.pace not in ("flat", "human"):
            raise ValueError("pace must be flat or human")
        if not self.spawn and max(self.tables) * self.plan.humans > self.connections_per_address:
            raise ValueError(f"{max(self.tables) * self.plan.humans} websockets exceed the server's "
                             f"{self.connections_per_address} per address (--connections-per-address, "
                             "after raising CODECRACK_CONNECTIONS_PER_ADDRESS on the server)")


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile (``share`` in [0, 1]).

    >>> percentile([3.0, 1.0, 2.0, 4.0], 0.5)
    2.0
    >>> percentile([], 0.95) is None
    True
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


class ServerWatch:
    """CPU seconds and peak RSS of the server process over one step (nothing without a pid)."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self.start = sample_process(pid) if pid else None
        self.peak_rss = self.start.rss_bytes if self.start else 0

    async def follow(self) -> None:
        while self.pid:
            self.peak_rss = max(self.peak_rss, sample_process(self.pid).rss_bytes)
            await asyncio.sleep(0.5)

    def report(self, elapsed: float, actions: int) -> dict[str, Any] | None:
        if not self.pid:
            return None
        end = sample_process(self.pid)
        cpu = end.cpu_seconds - self.start.cpu_seconds
        return {"pid": self.pid, "cpu_seconds": round(cpu, 3), "cpu_percent": round(100 * cpu / elapsed, 1),
                "cpu_ms_per_action": round(1000 * cpu / actions, 3) if actions else None,
                "rss_mb": round(end.rss_bytes / 2**20, 1), "peak_rss_mb": round(self.peak_rss / 2**20, 1)}


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(1000 * seconds, 2)


async def _step(settings: LoadSettings, url: str, pid: int | None, tables: int) -> dict[str, Any]:
    low, high = settings.human_pause if settings.pace == "human" else (0.0, 0.0)
    tables_per_minute, messages_per_second = settings.client_limits()
    pace = Pace(low, high, messages_per_second)
    tally, rate = Tally(), TableRate(tables_per_minute)
    watch = ServerWatch(pid)
    follower = asyncio.create_task(watch.follow())
    began = time.monotonic()
    deadline = began + settings.seconds
    slots = [play_tables(url, websocket_base(url), settings.plan, pace, rate, slot, settings.seed,
                         settings.games, deadline, tally) for slot in range(tables)]
    outcomes = await asyncio.gather(*slots, return_exceptions=True)
    elapsed = time.monotonic() - began
    follower.cancel()
    for failure in (o for o in outcomes if isinstance(o, BaseException)):
        tally.error(f"{type(failure).__name__}: {failure}"[:300])
    lat = tally.latencies
    return {
        "tables": tables, "sockets": tables * settings.plan.humans, "seconds": round(elapsed, 2),
        "actions": len(lat), "actions_per_second": round(len(lat) / elapsed, 1),
        "latency_ms": {"p50": _ms(percentile(lat, 0.50)), "p95": _ms(percentile(lat, 0.95)),
                       "p99": _ms(percentile(lat, 0.99)), "max": _ms(max(lat, default=None))},
        "errors": sum(tally.errors.values()), "error_messages": tally.errors,
        "games": {"valid": tally.games_valid, "invalid": len(tally.games_invalid),
                  "cut_at_time_limit": tally.games_cut, "invalid_detail": tally.games_invalid[:10]},
        "all_games_valid": not tally.games_invalid and not tally.errors,
        "server": watch.report(elapsed, len(lat)),
    }


def _summary(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The best load that kept p95 ≤ 100 ms, and (human pace) p99 ≤ 100 ms with 0 errors."""
    fast = [s for s in steps if s["latency_ms"]["p95"] is not None and s["latency_ms"]["p95"] <= P95_TARGET_MS]
    calm = [s for s in steps if s["latency_ms"]["p99"] is not None
            and s["latency_ms"]["p99"] <= P95_TARGET_MS and s["errors"] == 0]
    return {"best_actions_per_second_at_p95_le_100ms": max((s["actions_per_second"] for s in fast), default=None),
            "most_sockets_at_p99_le_100ms_0_errors": max((s["sockets"] for s in calm), default=None)}


async def _run_steps(settings: LoadSettings, url: str, pid: int | None) -> list[dict[str, Any]]:
    return [await _step(settings, url, pid, tables) for tables in settings.tables]


def run_load(settings: LoadSettings) -> dict[str, Any]:
    """Run every step against the URL (or a spawned server) and return the JSON report."""
    settings.check()
    spawned = SpawnedServer(settings.db) if settings.spawn else nullcontext()
    with spawned as server:
        url = server.url if settings.spawn else settings.url.rstrip("/")
        pid = server.pid if settings.spawn else settings.server_pid
        steps = asyncio.run(_run_steps(settings, url, pid))
    return {
        "target": "codecrack", "url": url, "spawned": settings.spawn, "pace": settings.pace,
        "game": settings.plan.game, "humans": settings.plan.humans, "ai_seats": settings.plan.ai_seats,
        "seed": settings.seed, "load_average": list(os.getloadavg()), "cpus": os.cpu_count(),
        "steps": steps, "summary": _summary(steps),
    }

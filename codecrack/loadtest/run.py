"""One load run: for each number of tables, play for a bounded time and measure; report JSON."""

from __future__ import annotations

import asyncio
import os
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .anchor import run_anchor
from .players import Pace, TablePlan, TableRate, Tally, open_rated, play_tables
from .report import ServerWatch, ratio, step_report, summary
from .target import SPAWNED_LIMITS, codecrack_server, require_loopback, websocket_base

MAX_SECONDS = 3600.0  # one step never runs longer than this
MAX_TABLES = 5000


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
    anchor: Path | None = None  # the boardgame.io harness folder: measure it too, with the same steps
    open_first: bool = False  # create and seat every slot's first table before the step's clock starts

    def pause(self) -> tuple[float, float]:
        """The range of a simulated player's pause before each action, in seconds."""
        return self.human_pause if self.pace == "human" else (0.0, 0.0)

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


async def _step(settings: LoadSettings, url: str, pid: int | None, tables: int) -> dict[str, Any]:
    low, high = settings.pause()
    tables_per_minute, messages_per_second = settings.client_limits()
    pace = Pace(low, high, messages_per_second)
    tally, rate = Tally(), TableRate(tables_per_minute)
    opened = await _open_first(settings, url, rate, tables, tally)
    watch = ServerWatch(pid)
    follower = asyncio.create_task(watch.follow())
    began = time.monotonic()
    deadline = began + settings.seconds
    slots = [play_tables(url, websocket_base(url), settings.plan, pace, rate, slot, settings.seed,
                         settings.games, deadline, tally, opened[slot]) for slot in range(tables)]
    outcomes = await asyncio.gather(*slots, return_exceptions=True)
    elapsed = time.monotonic() - began
    follower.cancel()
    for failure in (o for o in outcomes if isinstance(o, BaseException)):
        tally.error(f"{type(failure).__name__}: {failure}"[:300])
    return step_report(tables, tables * settings.plan.humans, elapsed, tally, watch)


async def _open_first(settings: LoadSettings, url: str, rate: TableRate, tables: int,
                      tally: Tally) -> list[tuple[str, list[str]] | None]:
    """With ``open_first``, every slot's first table, created and seated before the step's clock
    starts (a slot whose table could not be opened opens one during the step)."""
    if not settings.open_first:
        return [None] * tables
    opened = await asyncio.gather(*(open_rated(url, settings.plan, rate) for _ in range(tables)),
                                  return_exceptions=True)
    for failure in (o for o in opened if isinstance(o, BaseException)):
        tally.error(f"opening a table: {type(failure).__name__}: {failure}"[:300])
    return [None if isinstance(o, BaseException) else o for o in opened]


async def _run_steps(settings: LoadSettings, url: str, pid: int | None) -> list[dict[str, Any]]:
    return [await _step(settings, url, pid, tables) for tables in settings.tables]


def run_load(settings: LoadSettings) -> dict[str, Any]:
    """Run every step against the URL (or a spawned server) and return the JSON report."""
    settings.check()
    spawned = codecrack_server(settings.db) if settings.spawn else nullcontext()
    with spawned as server:
        url = server.url if settings.spawn else settings.url.rstrip("/")
        pid = server.pid if settings.spawn else settings.server_pid
        steps = asyncio.run(_run_steps(settings, url, pid))
    report = {
        "target": "codecrack", "url": url, "spawned": settings.spawn, "pace": settings.pace,
        "game": settings.plan.game, "humans": settings.plan.humans, "ai_seats": settings.plan.ai_seats,
        "seed": settings.seed, "load_average": list(os.getloadavg()), "cpus": os.cpu_count(),
        "steps": steps, "summary": summary(steps),
    }
    if settings.anchor:
        report["anchor"] = run_anchor(settings.anchor, settings.tables, settings.seconds, settings.games,
                                      settings.pause(), settings.seed)
        report["ratio_over_anchor"] = ratio(report["summary"], report["anchor"]["summary"])
    return report

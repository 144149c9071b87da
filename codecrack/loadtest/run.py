"""One load run: for each number of tables, play for a bounded time and measure; report JSON."""

from __future__ import annotations

import os
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from .anchor import run_anchor
from .report import ratio, summary
from .settings import LoadSettings
from .shares import run_step
from .target import ServerProcess, codecrack_server


def run_load(settings: LoadSettings) -> dict[str, Any]:
    """Run every step against the URL (or a spawned server) and return the JSON report."""
    settings.check()
    spawned: AbstractContextManager[ServerProcess | None] = (
        codecrack_server(settings.db) if settings.spawn else nullcontext()
    )
    with spawned as server:
        url = server.url if server else settings.url.rstrip("/")
        pid = server.pid if server else settings.server_pid
        steps = [run_step(settings, url, pid, tables) for tables in settings.tables]
    report: dict[str, Any] = {
        "target": "codecrack",
        "url": url,
        "spawned": settings.spawn,
        "pace": settings.pace,
        "game": settings.plan.game,
        "humans": settings.plan.humans,
        "ai_seats": settings.plan.ai_seats,
        "accounts": settings.accounts,
        "seed": settings.seed,
        "load_average": list(os.getloadavg()),
        "cpus": os.cpu_count(),
        "steps": steps,
        "summary": summary(steps),
    }
    if settings.anchor:
        report["anchor"] = run_anchor(
            settings.anchor, settings.tables, settings.seconds, settings.games, settings.pause(), settings.seed
        )
        report["ratio_over_anchor"] = ratio(report["summary"], report["anchor"]["summary"])
    return report

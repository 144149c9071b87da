"""The figures of one load step, the same for codecrack and for the boardgame.io anchor."""

from __future__ import annotations

import asyncio
from typing import Any

from .players import Tally
from .target import sample_process

P95_TARGET_MS = 100.0
KEY = "best_actions_per_second_at_p95_le_100ms"


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
        if not self.pid or self.start is None:
            return None
        end = sample_process(self.pid)
        self.peak_rss = max(self.peak_rss, end.rss_bytes)
        cpu = end.cpu_seconds - self.start.cpu_seconds
        return {
            "pid": self.pid,
            "cpu_seconds": round(cpu, 3),
            "cpu_percent": round(100 * cpu / elapsed, 1),
            "cpu_ms_per_action": round(1000 * cpu / actions, 3) if actions else None,
            "rss_mb": round(end.rss_bytes / 2**20, 1),
            "peak_rss_mb": round(self.peak_rss / 2**20, 1),
        }


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(1000 * seconds, 2)


def step_report(tables: int, sockets: int, elapsed: float, tally: Tally, watch: ServerWatch) -> dict[str, Any]:
    """One step's figures, the same for codecrack and for the boardgame.io anchor."""
    lat = tally.latencies
    return {
        "tables": tables,
        "sockets": sockets,
        "seconds": round(elapsed, 2),
        "actions": len(lat),
        "actions_per_second": round(len(lat) / elapsed, 1),
        "latency_ms": {
            "p50": ms(percentile(lat, 0.50)),
            "p95": ms(percentile(lat, 0.95)),
            "p99": ms(percentile(lat, 0.99)),
            "max": ms(max(lat, default=None)),
        },
        "errors": sum(tally.errors.values()),
        "error_messages": tally.errors,
        "games": {
            "valid": tally.games_valid,
            "invalid": len(tally.games_invalid),
            "cut_at_time_limit": tally.games_cut,
            "rated": tally.games_rated,
            "invalid_detail": tally.games_invalid[:10],
        },
        "all_games_valid": not tally.games_invalid and not tally.errors,
        "received_bytes_per_action": round(tally.received_bytes / len(lat)) if lat and tally.received_bytes else None,
        "server": watch.report(elapsed, len(lat)),
    }


def summary(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The best load that kept p95 ≤ 100 ms, and (human pace) p99 ≤ 100 ms with 0 errors."""
    fast = [s for s in steps if s["latency_ms"]["p95"] is not None and s["latency_ms"]["p95"] <= P95_TARGET_MS]
    calm = [
        s
        for s in steps
        if s["latency_ms"]["p99"] is not None and s["latency_ms"]["p99"] <= P95_TARGET_MS and s["errors"] == 0
    ]
    return {
        KEY: max((s["actions_per_second"] for s in fast), default=None),
        "most_sockets_at_p99_le_100ms_0_errors": max((s["sockets"] for s in calm), default=None),
    }


def ratio(ours: dict[str, Any], anchor: dict[str, Any]) -> float | None:
    """codecrack's best actions/s at p95 ≤ 100 ms over boardgame.io's (None if either has none).

    >>> ratio({KEY: 500.0}, {KEY: 2000.0})
    0.25
    """
    if not ours[KEY] or not anchor[KEY]:
        return None
    return round(ours[KEY] / anchor[KEY], 3)

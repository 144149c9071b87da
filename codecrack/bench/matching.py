"""``codecrack bench quick-match``: how long quick match keeps players waiting when they arrive at a
steady rate (issue 28 §2), on one in-process server over its HTTP API (docs/benchmarks.md).

Player ``i`` arrives ``i * 60 / rate`` seconds after the start, becomes a guest and calls
``POST /api/match`` as the page does (every 2 s) until seated; its wait runs from its first call to
the answer that seats it. The server uses a SQLite file in a temporary folder.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from statistics import median, quantiles
from typing import Any

import httpx

from ..web.app import create_app
from ..web.config import WebConfig

SITE = "http://bench"
EVERY = 2.0  # seconds between two calls of a waiting page (static/js/quickmatch.js)


async def one_player(app: Any, arrival: float, start: float, game: str, players: int) -> float:
    await asyncio.sleep(max(0.0, start + arrival - time.monotonic()))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=SITE, headers={"origin": SITE}) as client:
        me = (await client.post("/api/me/guest", json={})).json()
        client.headers["x-csrf-token"] = me["csrf"]
        began = time.monotonic()
        while True:
            answer = (await client.post("/api/match", json={"game": game, "players": players})).json()
            if answer["state"] == "seated":
                return time.monotonic() - began
            await asyncio.sleep(EVERY)


async def measure(rate: float, count: int, game: str, players: int, folder: str) -> list[float]:
    settings: dict[str, Any] = {
        "db_url": f"sqlite:///{folder}/bench.db",
        "match_calls_per_minute": 10**9,
        "disconnect_timeout": 3600.0,  # no takeover AI starts while the benchmark runs
        "metrics": False,
    }
    app = create_app(WebConfig(**settings))
    async with app.router.lifespan_context(app):
        start = time.monotonic() + 0.5
        waits = [one_player(app, i * 60.0 / rate, start, game, players) for i in range(count)]
        return await asyncio.gather(*waits)


def quick_match(games: int = 1000, rate: float | str = 1000.0, game: str = "coda", **_: Any) -> dict[str, Any]:
    """``games`` players arriving at ``rate`` players a minute (``-o rate=N``), two to a table."""
    rate = float(rate)
    with tempfile.TemporaryDirectory() as folder:
        waits = asyncio.run(measure(rate, games, game, 2, folder))
    return {
        "benchmark": "quick-match",
        "game": game,
        "players": games,
        "per_minute": rate,
        "poll_seconds": EVERY,
        "wait_median_s": round(median(waits), 3),
        "wait_p95_s": round(quantiles(waits, n=20, method="inclusive")[-1], 3),
        "wait_max_s": round(max(waits), 3),
    }


BENCHMARKS = {"quick-match": quick_match}

"""``codecrack bench review``: how long a whole game's review takes, per game and table size.

Games are played by ``medium`` agents from fixed seeds (not timed); then every seat's review is
timed from the record, replay included.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..agents import make_agent
from ..core.registry import new_game
from ..core.runner import run_game
from ..review.core import review_record

TABLES = (("coda", 2), ("coda", 4), ("coding", 2), ("coding", 4), ("alphacode", 2), ("alphacode", 3))


def review_benchmark(games: int = 5, seed: int = 0, level: str = "medium", **options: Any) -> dict[str, Any]:
    """Per (game, players): p50 / p95 / max of a whole review of one seat, over ``games`` games."""
    rows = []
    for name, players in TABLES:
        times, decisions = [], []
        for index in range(games):
            game = new_game(name, players=players, seed=seed * 1000 + index, **options.get(name, {}))
            run_game(game, {s: make_agent(level, name, seed=index * 31 + s) for s in range(players)})
            record = game.record()
            for seat in range(players):
                started = time.perf_counter()
                review = review_record(record, seat)
                times.append((time.perf_counter() - started) * 1000)
                decisions.append(len(review.decisions))
        p50, p95 = np.percentile(times, [50, 95])
        rows.append(
            {
                "game": name,
                "players": players,
                "reviews": len(times),
                "decisions_p50": float(np.median(decisions)),
                "ms_p50": round(float(p50), 1),
                "ms_p95": round(float(p95), 1),
                "ms_max": round(max(times), 1),
            }
        )
    return {"benchmark": "review", "games": games, "seed": seed, "level": level, "tables": rows}


BENCHMARKS = {"review": review_benchmark}

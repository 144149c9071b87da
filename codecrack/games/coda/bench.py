"""Coda benchmarks: ``codecrack bench coda-belief --json``.

``coda-belief`` times one belief update (read the view, count every consistent world exactly)
on fixed mid-game positions with 2, 3 and 4 players. The positions come from seeded games
between ``medium`` agents: every guess-phase view whose draw pile holds 6-14 tiles.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ...core.registry import new_game
from ...core.runner import run_game
from .agents import MediumAgent
from .belief import solve
from .observe import position_from_view

PILE_RANGE = (6, 14)  # "mid-game": tiles left in the draw pile


def midgame_views(players: int, games: int, seed: int, **options: Any) -> list[dict[str, Any]]:
    """Guess-phase views of the seat to move while the pile is half spent, from seeded games."""
    views: list[dict[str, Any]] = []

    for index in range(games):
        game = new_game("coda", players=players, seed=seed + index, **options)

        def keep(seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
            if game.over:
                return
            actor = game.current
            view = game.view(actor)
            if view["phase"] == "guess" and PILE_RANGE[0] <= sum(view["pile"].values()) <= PILE_RANGE[1]:
                views.append(view)

        agents = {s: MediumAgent(seed=seed * 7 + index * 5 + s) for s in range(players)}
        run_game(game, agents, on_step=keep)
    return views


def belief_update_ms(view: dict[str, Any], repeats: int) -> float:
    """Best of ``repeats`` timings of one full update: parse the view, count, normalise."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        solve(position_from_view(view))
        best = min(best, time.perf_counter() - started)
    return best * 1000


def belief_benchmark(game: str = "coda", seed: int | str = 0, games: int | str = 4, repeats: int = 3,
                     **options: Any) -> dict[str, Any]:
    """Belief update time p50/p95 (ms) on mid-game positions with 2, 3 and 4 players."""
    if game != "coda":
        raise ValueError("coda-belief benchmarks Coda only (--game coda)")
    seed, games = int(seed), int(games)
    table = {}
    for players in (2, 3, 4):
        views = midgame_views(players, games, seed, **options)
        times = [belief_update_ms(view, repeats) for view in views]
        worlds = [solve(position_from_view(view)).total for view in views]
        p50, p95 = np.percentile(times, [50, 95]) if times else (float("nan"), float("nan"))
        table[str(players)] = {
            "positions": len(views),
            "p50_ms": round(float(p50), 3),
            "p95_ms": round(float(p95), 3),
            "median_worlds": int(np.median(worlds)) if worlds else 0,
        }
    return {"benchmark": "coda-belief", "seed": seed, "games": games, "options": options, "players": table}


BENCHMARKS = {"coda-belief": belief_benchmark}

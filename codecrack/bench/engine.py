"""``codecrack bench engine`` (random playouts on one core) and ``codecrack bench arena-ray``."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from ..agents import RandomAgent
from ..core.registry import new_game
from ..core.runner import run_game


def engine_benchmark(
    game: str = "coda", games: int = 200, seed: int = 0, players: int = 2, **options: Any
) -> dict[str, Any]:
    """Random playouts on one core: full games per second, agents' thinking included."""
    started = time.perf_counter()
    actions = 0
    for index in range(games):
        match = new_game(game, players=players, seed=seed + index, **options)
        agents = {seat: RandomAgent(seed=seed + index * 7 + seat) for seat in range(players)}
        run = run_game(match, agents)
        actions += sum(len(times) for times in run.decision_ms.values())  # one decision per action
    elapsed = time.perf_counter() - started
    return {
        "benchmark": "engine",
        "game": game,
        "players": players,
        "games": games,
        "games_per_s": round(games / elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1),
    }


def arena_ray_benchmark(
    game: str = "coda", games: int = 60, seed: int = 1, level: str = "hard", repeats: int = 5, **options: Any
) -> dict[str, Any]:
    """The arena on a local Ray with 2 workers against 1 worker (``level`` against ``medium``),
    the two alternated ``repeats`` times so that a busy machine's drift hits both alike. Reports
    the median games per second of each and their ratio, and, to tell Ray's overhead from a
    busy machine, games per CPU-second and the cores the games actually got (CPU time of the
    games over wall time). Starting Ray is not timed."""
    from statistics import median

    from ..arena import ArenaConfig, run_arena

    runs: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    for _ in range(int(repeats)):  # -o repeats=N arrives as text
        for workers in runs:
            config = ArenaConfig(game, 2, (level, "medium"), games, seed, workers, options)
            runs[workers].append(run_arena(config, backend="ray"))

    def medians(key: Callable[[dict[str, Any]], float]) -> dict[str, float]:
        return {str(workers): round(median(key(run) for run in done), 3) for workers, done in runs.items()}

    rates = medians(lambda run: run["games_per_s"])
    return {
        "benchmark": "arena-ray",
        "game": game,
        "agents": [level, "medium"],
        "games": games,
        "games_per_s": {str(workers): [run["games_per_s"] for run in done] for workers, done in runs.items()},
        "median_games_per_s": rates,
        "speedup_2_over_1": round(rates["2"] / rates["1"], 2),
        "median_games_per_cpu_s": medians(lambda run: run["games"] / run["cpu_s"]),
        "median_cores_used": medians(lambda run: run["cpu_s"] / run["elapsed_s"]),
        "load_average_1m_after": round(os.getloadavg()[0], 1),
    }


BENCHMARKS = {"engine": engine_benchmark, "arena-ray": arena_ray_benchmark}

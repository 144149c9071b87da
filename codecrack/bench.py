"""Benchmarks: ``engine`` for every game, plus each game's own ``BENCHMARKS`` table."""

from __future__ import annotations

import time
from typing import Any, Callable

from .agents import RandomAgent
from .core.errors import OptionError
from .core.registry import GAMES, game_module, new_game
from .core.runner import run_game

Benchmark = Callable[..., dict[str, Any]]


def engine_benchmark(game: str = "coda", games: int = 200, seed: int = 0, players: int = 2,
                     **options: Any) -> dict[str, Any]:
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


def benchmarks() -> dict[str, Benchmark]:
    """Every benchmark by name."""
    from .review.bench import review_benchmark

    table: dict[str, Benchmark] = {"engine": engine_benchmark, "review": review_benchmark}
    for game in GAMES:
        table.update(getattr(game_module(game, "bench"), "BENCHMARKS", {}))
    return table


def run_benchmark(name: str, **params: Any) -> dict[str, Any]:
    table = benchmarks()
    if name not in table:
        raise OptionError(f"unknown benchmark {name!r}; valid benchmarks: {', '.join(sorted(table))}")
    return table[name](**{k: v for k, v in params.items() if v is not None})

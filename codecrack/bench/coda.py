"""Coda benchmarks: ``codecrack bench coda-belief --json`` and ``codecrack bench coda-decisions --json``.

``coda-belief`` times one belief update (read the view, count every consistent world exactly)
on fixed mid-game positions with 2, 3 and 4 players. The positions come from seeded games
between ``medium`` agents: every guess-phase view whose draw pile holds 6-14 tiles.

``coda-decisions`` plays one agent (``--level``, default ``hard``) against ``medium``s in the
arena's seeded games and times every one of its decisions, in CPU time of the process
(``time.process_time``, which other jobs on the machine do not inflate) and in wall-clock time.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..agents import make_agent
from ..arena import game_seed, seat_names, wilson
from ..core.registry import new_game
from ..core.runner import run_game
from ..games.coda.agents import MediumAgent
from ..games.coda.belief import solve
from ..games.coda.observe import position_from_view

PILE_RANGE = (6, 14)  # "mid-game": tiles left in the draw pile


def midgame_views(players: int, games: int, seed: int, **options: Any) -> list[dict[str, Any]]:
    """Guess-phase views of the seat to move while the pile is half spent, from seeded games."""
    views: list[dict[str, Any]] = []

    for index in range(games):
        game = new_game("coda", players=players, seed=seed + index, **options)

        def keep(seat: int, action: dict[str, Any], events: list[dict[str, Any]], game=game) -> None:
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


def belief_benchmark(
    game: str = "coda", seed: int | str = 0, games: int | str = 4, repeats: int = 3, **options: Any
) -> dict[str, Any]:
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


def timed_game(
    level: str, players: int, seed: int, index: int, **options: Any
) -> tuple[float, list[float], list[float]]:
    """Game ``index`` of the arena series ``seed`` with ``level`` against ``medium``s, seeded as
    ``codecrack arena`` seeds it: ``level``'s win (a share when tied), and the CPU and wall-clock
    milliseconds of each of its decisions."""
    seeded = game_seed(seed, index)
    names = seat_names((level, "medium"), players, index)
    agents = {s: make_agent(name, "coda", seed=seeded * 31 + s) for s, name in enumerate(names)}
    game = new_game("coda", players=players, seed=seeded, **options)
    hero = names.index(level)
    cpu, wall = [], []
    while not game.over:
        seat = min(game.to_move)
        view = game.view(seat)
        cpu_started, wall_started = time.process_time(), time.perf_counter()
        action = agents[seat].act(view)
        if seat == hero:
            cpu.append((time.process_time() - cpu_started) * 1000)
            wall.append((time.perf_counter() - wall_started) * 1000)
        game.apply(seat, action)
    result = game.result
    assert result is not None, "the game is played to its end"
    winners = result["winners"]
    return (1 / len(winners) if hero in winners else 0.0), cpu, wall


def decisions_benchmark(
    game: str = "coda",
    seed: int | str = 0,
    games: int | str = 20,
    level: str = "hard",
    players: int | str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """``level``'s decision time p50/p95/max (CPU and wall ms) and win rate against ``medium``s,
    with 2, 3 and 4 players (or only ``players``, given as ``-o players=N``)."""
    if game != "coda":
        raise ValueError("coda-decisions benchmarks Coda only (--game coda)")
    seed, games = int(seed), int(games)
    table = {}
    for count in (2, 3, 4) if players is None else (int(players),):
        wins = 0.0
        cpu: list[float] = []
        wall: list[float] = []
        for index in range(games):
            won, game_cpu, game_wall = timed_game(level, count, seed, index, **options)
            wins, cpu, wall = wins + won, cpu + game_cpu, wall + game_wall
        low, high = wilson(wins, games)
        table[str(count)] = {
            "games": games,
            "win_rate": round(wins / games, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "fair_share": round(1 / count, 4),
            "decisions": len(cpu),
            "cpu_ms": _spread(cpu),
            "wall_ms": _spread(wall),
        }
    return {
        "benchmark": "coda-decisions",
        "level": level,
        "seed": seed,
        "games": games,
        "options": options,
        "players": table,
    }


def _spread(values: list[float]) -> dict[str, float]:
    p50, p95 = np.percentile(values, [50, 95])
    return {"p50": round(float(p50), 2), "p95": round(float(p95), 2), "max": round(max(values), 2)}


BENCHMARKS = {"coda-belief": belief_benchmark, "coda-decisions": decisions_benchmark}

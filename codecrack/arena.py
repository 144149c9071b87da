"""The arena: many seeded games between named agents, seats rotated, in parallel processes."""

from __future__ import annotations

import math
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .agents import make_agent
from .core.registry import new_game
from .core.runner import run_game


@dataclass(frozen=True)
class ArenaConfig:
    game: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    workers: int = 1
    options: dict[str, Any] = field(default_factory=dict)


def seat_names(agents: tuple[str, ...], players: int, game_index: int) -> list[str]:
    """Fill the seats from ``agents`` (the last name repeats), rotated by ``game_index``.

    >>> seat_names(("hard", "medium"), 3, 1)
    ['medium', 'hard', 'medium']
    """
    names = list(agents[:players]) + [agents[-1]] * (players - len(agents))
    shift = game_index % players
    return names[-shift:] + names[:-shift] if shift else names


def play_one(config: ArenaConfig, game_index: int) -> dict[str, Any]:
    """Play game ``game_index`` of the series and summarise it by agent name."""
    seed = config.seed * 1_000_003 + game_index
    names = seat_names(config.agents, config.players, game_index)
    game = new_game(config.game, players=config.players, seed=seed, **config.options)
    agents = {seat: make_agent(name, config.game, seed=seed * 31 + seat) for seat, name in enumerate(names)}
    run = run_game(game, agents)
    result = game.result
    winners = result["winners"]
    wins: dict[str, float] = defaultdict(float)
    for seat in winners:
        wins[names[seat]] += 1 / len(winners)
    return {
        "names": names,
        "wins": dict(wins),
        "scores": result.get("scores"),
        "decision_ms": {seat: run.decision_ms[seat] for seat in range(config.players)},
    }


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a rate.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


def _play_chunk(args: tuple[ArenaConfig, list[int]]) -> list[dict[str, Any]]:
    config, indices = args
    return [play_one(config, i) for i in indices]


def run_arena(config: ArenaConfig) -> dict[str, Any]:
    """Play the series and report wins, 95% intervals, decision times and throughput."""
    started = time.perf_counter()
    indices = list(range(config.games))
    if config.workers > 1:
        chunks = [indices[w :: config.workers] for w in range(config.workers)]
        with ProcessPoolExecutor(config.workers) as pool:
            games = [g for chunk in pool.map(_play_chunk, [(config, c) for c in chunks]) for g in chunk]
    else:
        games = _play_chunk((config, indices))
    elapsed = time.perf_counter() - started
    return summarise(config, games, elapsed)


def summarise(config: ArenaConfig, games: list[dict[str, Any]], elapsed: float) -> dict[str, Any]:
    wins: dict[str, float] = defaultdict(float)
    times: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    for game in games:
        for name, share in game["wins"].items():
            wins[name] += share
        for seat, name in enumerate(game["names"]):
            times[name].extend(game["decision_ms"][seat])
            if game["scores"] is not None:
                scores[name].append(game["scores"][seat])
    seats = seat_names(config.agents, config.players, 0)
    rows = []
    for name in dict.fromkeys(seats):
        low, high = wilson(wins[name], len(games))
        row = {
            "name": name,
            "seats": seats.count(name),
            "fair_share": seats.count(name) / config.players,
            "wins": round(wins[name], 3),
            "win_rate": round(wins[name] / len(games), 4) if games else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "decision_ms": _percentiles(times[name]),
        }
        if scores[name]:
            row["mean_score"] = round(float(np.mean(scores[name])), 4)
        rows.append(row)
    return {
        "game": config.game,
        "players": config.players,
        "options": config.options,
        "games": len(games),
        "agents": rows,
        "games_per_s": round(len(games) / elapsed, 3) if elapsed > 0 else None,
    }


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None}
    p50, p95 = np.percentile(values, [50, 95])
    return {"p50": round(float(p50), 3), "p95": round(float(p95), 3)}

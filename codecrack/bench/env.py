"""``codecrack bench env``: steps per second of the environments, on one core, against anchors.

- ``engine``: the engine's own random playouts (``codecrack bench engine``), actions per second;
- ``pettingzoo``: masked random play through the AEC environment, steps per second;
- ``openspiel``: random play through pyspiel's Python-game wrapper, player actions per second;
- ``kuhn_poker``: the same loop over OpenSpiel's own Python Kuhn poker, the wrapper's known anchor.
"""

from __future__ import annotations

import importlib.util
import random
import time
from typing import Any

import numpy as np

from ..core.options import parse_options
from ..core.registry import game_class
from .engine import engine_benchmark


def pettingzoo_steps_per_s(game: str, players: int, games: int, seed: int, **options: Any) -> float:
    from ..env.pettingzoo import env

    aec = env(game, players=players, **options)
    rng = random.Random(seed)  # as the engine's random agents draw
    steps, started = 0, time.perf_counter()
    for index in range(games):
        aec.reset(seed=seed + index)
        for _ in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - started)


def pyspiel_steps_per_s(name: str, params: dict[str, Any], games: int, seed: int) -> float:
    """Random play through pyspiel: player actions per second (chance outcomes drawn too)."""
    import pyspiel

    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(seed)
    steps, started = 0, time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[rng.integers(len(state.chance_outcomes()))][0])
                continue
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
    return steps / (time.perf_counter() - started)


def env_benchmark(
    game: str = "coda", games: int = 20, seed: int = 0, players: int = 2, **options: Any
) -> dict[str, Any]:
    """The figures above for one configuration (``-o key=value`` options arrive as text, so they
    are read through the game's options model, ``players`` as a number)."""
    players = int(players)
    parsed = parse_options(game_class(game).Options, options).model_dump()
    options = {key: parsed[key] for key in options}
    engine = engine_benchmark(game, games=games, seed=seed, players=players, **options)["actions_per_s"]
    pettingzoo = pettingzoo_steps_per_s(game, players, games, seed, **options)
    report: dict[str, Any] = {
        "benchmark": "env",
        "game": game,
        "players": players,
        "options": options,
        "games": games,
        "engine_actions_per_s": engine,
        "pettingzoo_steps_per_s": round(pettingzoo, 1),
        "pettingzoo_vs_engine": round(pettingzoo / engine, 2),
    }
    if importlib.util.find_spec("pyspiel") is not None:
        from open_spiel.python import games as _python_games  # noqa: F401 - registers python_kuhn_poker

        from ..env import openspiel

        report["openspiel_steps_per_s"] = round(
            pyspiel_steps_per_s(openspiel.short_name(game), {"players": players, **options}, games, seed), 1
        )
        report["kuhn_poker_steps_per_s"] = round(pyspiel_steps_per_s("python_kuhn_poker", {}, games * 50, seed), 1)
    return report


BENCHMARKS = {"env": env_benchmark}

"""``codecrack bench move-cost --game G``: what one AI move costs, for every option set a client
may choose, in a game that declares its :class:`~codecrack.core.agent.MoveCost` (Coda, The
Coding; issue 24; docs/security.md, "Coda's and The Coding's bots").

Alphabet Code's cost grows with its sheet and is measured per setup (``alphacode-cost``); Coda's
and The Coding's agents work within fixed budgets of their own (playouts, worlds, solve effort),
whatever the options. This benchmark shows it: for each player count and each combination of the
options the AI reads (the declaration's ``read``), ``--games`` (1) seeded games with every seat played by
``--level`` (``hard``, the dearest), timing each decision in CPU time (``time.thread_time``); with
``-o memory=true`` it also traces each decision's peak of new Python memory (``tracemalloc``, which
slows the decisions: read the CPU figures of a run without it). Reported: per option set the
decisions, the dearest one's CPU and (with ``memory``) the largest peak; and the worst of all.

The options the AI does not read are fixed at their defaults (``unread``, each with its reason);
``tests/web/test_work_budget.py`` checks that every other option of the game is declared.
"""

from __future__ import annotations

import itertools
import time
import tracemalloc
from typing import Any

from ..agents import make_agent
from ..core.agent import MoveCost
from ..core.errors import OptionError
from ..core.registry import GAMES, game_class, game_part, new_game
from ..core.runner import next_actor


def declared(game: str) -> MoveCost:
    """The move cost game ``game`` declares (``MOVE_COST`` in its ``agents`` module)."""
    cost = game_part(game, "agents", "MOVE_COST")
    if cost is None:
        measured = ", ".join(name for name in GAMES if game_part(name, "agents", "MOVE_COST") is not None)
        raise OptionError(f"move-cost measures the games that declare a MOVE_COST: {measured}")
    return cost


def option_sets(game: str) -> list[tuple[int, dict[str, Any]]]:
    """Every (players, options) the AI's work may depend on."""
    read = declared(game).read
    cls = game_class(game)
    return [
        (players, dict(zip(read, values, strict=True)))
        for players in range(cls.min_players, cls.max_players + 1)
        for values in itertools.product(*read.values())
    ]


def decisions(game_name: str, players: int, options: dict[str, Any], level: str, seed: int, memory: bool) -> list:
    """(CPU seconds, peak bytes or 0) of every decision of one seeded game."""
    game = new_game(game_name, players=players, seed=seed, **options)
    agents = {seat: make_agent(level, game_name, seed=seed * 7 + seat) for seat in range(players)}
    costs = []
    while not game.over:
        seat = next_actor(game, agents)
        view = game.view(seat)
        if memory:
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
        started = time.thread_time()
        action = agents[seat].act(view)
        cpu = time.thread_time() - started
        costs.append((cpu, tracemalloc.get_traced_memory()[1] - base if memory else 0))
        game.apply(seat, action)
    return costs


def move_cost(
    game: str | None = None,
    games: int | None = None,
    level: str | None = None,
    seed: int | None = None,
    memory: str = "false",
    players: str | None = None,
    **other: Any,
) -> dict[str, Any]:
    """The dearest decision of ``level`` for every option set of ``game`` (``-o players=N``: that
    count only)."""
    if other:
        raise OptionError("move-cost takes --game, --games, --level, --seed, -o memory=true and -o players=N")
    game, level, traced = game or "coda", level or "hard", str(memory).lower() == "true"
    rows = []
    if traced:
        tracemalloc.start()
    try:
        for count, options in option_sets(game):
            if players is not None and count != int(players):
                continue
            costs = [
                cost
                for index in range(games or 1)
                for cost in decisions(game, count, options, level, (seed or 0) + index, traced)
            ]
            rows.append(
                {
                    "players": count,
                    "options": options,
                    "decisions": len(costs),
                    "dearest_cpu_s": round(max(cpu for cpu, _ in costs), 3),
                    **({"peak_mb": round(max(peak for _, peak in costs) / 2**20, 1)} if traced else {}),
                }
            )
    finally:
        if traced:
            tracemalloc.stop()
    dearest = max(rows, key=lambda row: row["dearest_cpu_s"])
    return {
        "benchmark": "move-cost",
        "game": game,
        "level": level,
        "games_per_set": games or 1,
        "sets": len(rows),
        "decisions": sum(row["decisions"] for row in rows),
        "dearest_cpu_s": dearest["dearest_cpu_s"],
        "dearest_at": {"players": dearest["players"], "options": dearest["options"]},
        **({"peak_mb": max(row["peak_mb"] for row in rows)} if traced else {}),
        "by_set": rows,
    }


BENCHMARKS = {"move-cost": move_cost}

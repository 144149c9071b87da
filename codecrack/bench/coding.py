"""Benchmarks for The Coding: ``coding-belief``, the time of one exact belief update.

An update reads one view and computes the exact joint posterior of every opponent's code
(:func:`~codecrack.games.coding.reading.facts_from_view` then
:meth:`~codecrack.games.coding.facts.Facts.belief`). Positions are fixed by the seed: games
between ``medium`` agents, stopped when the hacking rounds end (every player then holds 4 data
and 4 hack cards, the middle of the game), seen from one seat.

>>> report = belief_benchmark(games=2, repeats=1)
>>> sorted(report["players"])
['2', '4']
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..core.errors import OptionError
from ..core.registry import new_game
from ..core.runner import next_actor
from ..games.coding.agents import AGENTS
from ..games.coding.reading import facts_from_view, my_code
from ..games.coding.rules import CodingGame
from ..games.coding.tactics import answer_score, best_answer, joint_best_answer


def mid_game_views(players: int, games: int, seed: int, mode: str) -> list[dict[str, Any]]:
    """One view per game, when the hacking rounds are over, from a seat that rotates."""
    views = []
    for index in range(games):
        game = CodingGame(players=players, seed=seed + index, mode=mode)
        agents = {s: AGENTS["medium"](seed=seed + index * 7 + s) for s in range(players)}
        while game.phase == "order" or game.phase == "hacking":
            seat = next_actor(game, agents)
            game.apply(seat, agents[seat].act(game.view(seat)))
        views.append(game.view(index % players))
    return views


def update(view: dict[str, Any]) -> list[np.ndarray]:
    """One belief update: every opponent's code distribution from the view."""
    belief, _ = facts_from_view(view).belief(view["seat"], my_code(view))
    return belief.probs


def _percentiles(times: list[float]) -> dict[str, float]:
    p50, p95 = np.percentile(times, [50, 95])
    return {"p50": round(float(p50), 3), "p95": round(float(p95), 3)}


def belief_benchmark(
    seed: int = 0, games: int = 30, repeats: int = 5, mode: str = "counter", game: str | None = None
) -> dict[str, Any]:
    """Belief update times in ms (p50, p95) over fixed mid-game positions with 2 and 4 players."""
    if game not in (None, "coding"):
        raise OptionError("coding-belief measures The Coding only (--game coding)")
    seed, games, repeats = int(seed), int(games), int(repeats)
    report: dict[str, Any] = {
        "benchmark": "coding-belief",
        "mode": mode,
        "positions": games,
        "repeats": repeats,
        "players": {},
    }
    for players in (2, 4):
        times = []
        for view in mid_game_views(players, games, seed, mode):
            for _ in range(repeats):
                started = time.perf_counter()
                update(view)
                times.append((time.perf_counter() - started) * 1000)
        report["players"][str(players)] = {"update_ms": _percentiles(times)}
    return report


def oneshot_benchmark(seed: int = 0, games: int = 100, players: int = 4, game: str | None = None) -> dict[str, Any]:
    """``hard``'s one-shot answers against the exact references: for every answer it writes, its
    expected score, the per-symbol argmax's (:func:`.tactics.best_answer`) and the best of all
    540 codes scored against the full posterior (:func:`.tactics.joint_best_answer`).

    One ``hard`` against ``medium``s, seats rotated; the posterior is hard's own (exact, joint).
    """
    if game not in (None, "coding"):
        raise OptionError("coding-oneshot measures The Coding only (--game coding)")
    seed, games, players = int(seed), int(games), int(players)
    written, argmax, joint = [], [], []
    for index in range(games):
        match = new_game("coding", players=players, seed=seed * 1000 + index, mode="one-shot")
        hard_seat = index % players
        agents = {s: AGENTS["hard" if s == hard_seat else "medium"](seed=index * 31 + s) for s in range(players)}
        while not match.over:
            seat = next_actor(match, agents)
            view = match.view(seat)
            action = agents[seat].act(view)
            if seat == hard_seat and view["step"] == "answers":
                beliefs = agents[seat].read(view).beliefs
                for target, code in action["codes"].items():
                    probs = beliefs[int(target)]
                    written.append(answer_score(probs, code))
                    argmax.append(best_answer(probs)[1])
                    joint.append(joint_best_answer(probs)[1])
            match.apply(seat, action)
    gap = np.array(joint) - np.array(argmax)
    return {
        "benchmark": "coding-oneshot",
        "games": games,
        "players": players,
        "seed": seed,
        "answers": len(written),
        "mean_written": round(float(np.mean(written)), 6),
        "mean_argmax": round(float(np.mean(argmax)), 6),
        "mean_joint_best": round(float(np.mean(joint)), 6),
        "max_joint_minus_argmax": float(gap.max()),
        "max_joint_minus_written": float(np.max(np.array(joint) - written)),
        "answers_below_joint_best": int(np.sum(np.array(written) < np.array(joint) - 1e-9)),
    }


BENCHMARKS = {"coding-belief": belief_benchmark, "coding-oneshot": oneshot_benchmark}

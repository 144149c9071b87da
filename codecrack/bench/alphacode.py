"""Alphabet Code benchmarks: how many turns a solver tier needs, and how long it thinks.

``codecrack bench alphacode-solver --level hard --codes 500 --seed 0 --json`` plays ``codes``
real duels through the engine. Seat 0 is the solver and goes first; seat 1 is a sparring partner
that draws a random legal code (``--option maker=tricky``: a hard-to-crack one), then only asks
questions. The solver plays solo: it ignores what the partner learns about its own code. A
solver's turns are its questions and declarations until it declares correctly.

>>> report = solver_benchmark(level="medium", codes=2, seed=1)
>>> report["solved"], 5 <= report["mean_turns"] <= report["max_turns"] <= 14
(2, True)
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..agents import make_agent
from ..core.errors import OptionError
from ..core.registry import new_game
from ..core.runner import run_game
from ..games.alphacode.agents import Sparring, greedy_question, hard_question
from ..games.alphacode.bound import bound_benchmark
from ..games.alphacode.solver import CodeSpace


def solver_benchmark(
    level: str = "hard", codes: int = 100, seed: int = 0, letters: int = 10, maker: str = "random", **other: Any
) -> dict[str, Any]:
    """Mean and max turns to crack ``codes`` codes, and the solver's decision time p50/p95 (ms)."""
    if other:
        raise OptionError(
            f"alphacode-solver takes --level, --codes, --seed, --letters and --option maker=..., "
            f"not {', '.join(sorted(other))}"
        )
    if maker not in ("random", "tricky"):
        raise OptionError(f"maker must be random or tricky, not {maker!r}")
    codes, seed, letters = int(codes), int(seed), int(letters)
    turns, times, solved = [], [], 0
    started = time.perf_counter()
    for index in range(codes):
        game = new_game("alphacode", players=2, seed=seed * 1_000_003 + index, first=0, letters=letters)
        game.apply(0, {"type": "random_code"})  # the solver's own code plays no part here
        solver = make_agent(level, "alphacode", seed=seed * 31 + index, solo=True)
        run = run_game(game, {0: solver, 1: Sparring(seed + index, tricky=maker == "tricky")})
        moves = [action for seat, action in game.record()["actions"] if seat == 0]
        turns.append(len(moves) - 1)
        times.extend(run.decision_ms[0])
        result = game.result
        assert result is not None, "run_game plays to the end"
        solved += result["winners"] == [0]
    return {
        "benchmark": "alphacode-solver",
        "level": level,
        "letters": letters,
        "maker": maker,
        "codes": codes,
        "seed": seed,
        "solved": solved,
        "mean_turns": round(float(np.mean(turns)), 3),
        "max_turns": int(max(turns)),
        "turns_histogram": {str(t): turns.count(t) for t in sorted(set(turns))},
        "decision_ms": {
            "p50": round(float(np.percentile(times, 50)), 2),
            "p95": round(float(np.percentile(times, 95)), 2),
            "max": round(float(max(times)), 2),
        },
        "seconds": round(time.perf_counter() - started, 1),
    }


def exact_benchmark(level: str = "hard", real_words: bool | str = False, **other: Any) -> dict[str, Any]:
    """Exact mean and max turns of a deterministic tier over every legal code of the default setup
    (``--option real_words=true``: of the 16 codes that spell words).

    >>> exact_benchmark("hard", real_words="true")["codes"]
    16

    Walks the tier's decision tree (solo, spare miss in hand) instead of sampling codes. Where
    ``hard`` spends its miss it declares the first candidate here (the agent draws one).
    """
    if other or level not in ("medium", "hard"):
        raise OptionError("alphacode-exact takes --level medium or hard, and --option real_words=...")
    space = CodeSpace.of(real_words=str(real_words).lower() == "true")
    started = time.perf_counter()

    def walk(alive: np.ndarray, answers: list[tuple[int, int]] | None, spent: int, spare_miss: bool) -> tuple[int, int]:
        """(sum of turns over ``alive``, max turns) when ``spent`` turns are already played."""
        if len(alive) == 1:
            return spent + 1, spent + 1
        q: int | None
        if level == "medium":
            q = greedy_question(space, alive)
        else:
            q = hard_question(space, alive, answers, spare_miss)
        if q is None:
            rest, most = walk(alive[1:], None, spent + 1, False)
            return spent + 1 + rest, most
        column = space.column(alive, q)
        total, most = 0, 0
        for answer in np.unique(column):
            heard = None if answers is None else answers + [(q, int(answer))]
            part_total, part_most = walk(alive[column == answer], heard, spent + 1, spare_miss)
            total, most = total + part_total, max(most, part_most)
        return total, most

    total, most = walk(space.everything(), [], 0, True)
    return {
        "benchmark": "alphacode-exact",
        "level": level,
        "codes": len(space.table),
        "mean_turns": round(total / len(space.table), 4),
        "max_turns": most,
        "seconds": round(time.perf_counter() - started, 1),
    }


def cost_benchmark(
    letters: int = 10, columns: int = 13, rows: int = 5, level: str = "easy", games: int = 0, **other: Any
) -> dict:
    """What the solver costs on one setup (run it in a fresh process: the peak is the process's):
    the legal codes, and the CPU time and peak memory (above the process's start) of a new game,
    the table's build and the first move of ``level``, the dearest one (every code a candidate);
    with ``games``, the CPU time of the dearest move (the table built) in that many whole games of
    ``level`` against itself.

    >>> cost_benchmark(level="medium", games=1)["codes"]
    44099
    """
    if other:
        raise OptionError("alphacode-cost takes --letters, --level, --games, -o columns=N and -o rows=N")
    import resource

    start_kb, cpu = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.process_time()
    game = new_game("alphacode", players=2, seed=1, first=0, letters=int(letters), columns=int(columns), rows=int(rows))
    for seat in (0, 1):
        game.apply(seat, {"type": "random_code"})
    make_agent(level, "alphacode", seed=1).act(game.view(0))
    cpu = time.process_time() - cpu
    space = CodeSpace.for_view(game.view(0))
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "benchmark": "alphacode-cost",
        "setup": [int(letters), int(columns), int(rows)],
        "level": level,
        "codes": len(space.table),
        "cpu_s": round(cpu, 2),
        "peak_mb_above_start": round((peak_kb - start_kb) / 1024),
        "bytes_per_code_at_peak": round((peak_kb - start_kb) * 1024 / len(space.table)),
        "cpu_us_per_code": round(cpu * 1e6 / len(space.table), 2),
        **({"games": int(games), "dearest_move_cpu_s": dearest_move(game.options, level, int(games))} if games else {}),
    }


def dearest_move(options: Any, level: str, games: int) -> float:
    """The most CPU time one move of ``level`` took in ``games`` games against itself."""
    dearest = 0.0
    for index in range(games):
        game = new_game("alphacode", players=2, seed=index + 2, **options.model_dump(exclude={"first"}))
        agents = {seat: make_agent(level, "alphacode", seed=index * 2 + seat) for seat in (0, 1)}
        while not game.over:
            seat = min(game.awaited)
            started = time.process_time()
            action = agents[seat].act(game.view(seat))
            dearest = max(dearest, time.process_time() - started)
            game.apply(seat, action)
    return round(dearest, 2)


BENCHMARKS = {
    "alphacode-cost": cost_benchmark,
    "alphacode-solver": solver_benchmark,
    "alphacode-exact": exact_benchmark,
    "alphacode-bound": bound_benchmark,
}

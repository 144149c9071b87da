"""A certified lower bound on the best possible mean number of turns to crack an Alphabet Code.

A solver's turn is a question or a declaration; a correct declaration ends the game, and one
wrong declaration (the spare miss) is allowed before the right one. ``T(S, miss)``, the least
total number of turns over the candidate set ``S`` (uniform), satisfies::

    T({c}, _) = 1
    T(S, miss) = |S| + min( min over questions q of  sum over q's answers of T(part, miss),
                            if miss: min over c of T(S - {c}, no miss) )

and a solver without its miss never declares among several candidates (it could lose). The
exact recursion is out of reach for 44,099 codes and 44 questions, so :func:`lower_bound` runs it
to a limited depth and below that uses :func:`static_bound`, a bound that holds for every
strategy on a candidate set:

* **Kraft.** In any strategy tree, summing over the candidates the product of ``1 / (number of
  branches)`` of the nodes on each candidate's path gives exactly 1. A question ``q`` never has
  more branches below ``S`` than the number ``a_q`` of different answers it gets within ``S``,
  and a path asks each question at most once, so a candidate reached after ``k`` questions
  weighs at least ``1 / W(k)``, ``W(k)`` being the product of the ``k`` largest ``a_q``. A
  declaration among several candidates has 2 branches.
* **Turns.** A candidate reached after ``k`` questions costs ``k + 1`` turns (its declaration);
  if its path holds a declaration among several candidates (which needs the miss) it is either
  that declaration's correct code (``k + 1`` turns, weight halved) or one of the others
  (``k + 2``, weight halved), and each such declaration has at least one of the others.
* Minimising the total turns under ``sum of weights <= 1`` as a linear programme (a relaxation,
  so its optimum is at most every real strategy's) gives ``n`` times the lower convex envelope
  of the per-candidate (weight, turns) options at weight ``1 / n``.

``codecrack bench alphacode-bound --option depth=D --json`` computes the bound for the default
setup.
A test checks it against the exact optimum (brute force) on small candidate sets.

>>> space = CodeSpace.of()
>>> alive = space.everything()[:3]
>>> lower_bound(space, alive, miss=True, depth=1) <= exact_turns(space, alive, miss=True)
True
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

import numpy as np

from ...core.errors import OptionError
from .solver import CodeSpace

INFEASIBLE = float("inf")
DECLARE_SEARCH = 8  # up to this many candidates the bound tries every declaration


def arities(matrix: np.ndarray) -> np.ndarray:
    """How many different answers each question gets over the candidates (rows of ``matrix``),
    for the questions that still split them (two answers or more).

    >>> arities(np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3]], dtype=np.uint8)).tolist()
    [2, 2]
    """
    present = np.zeros((matrix.shape[1], 5), dtype=bool)
    present[np.arange(matrix.shape[1])[None, :], matrix] = True
    counts = present.sum(axis=1)
    splitting: np.ndarray = counts[counts > 1]
    return splitting


def static_bound(size: int, branch: np.ndarray, miss: bool) -> float:
    """Least total turns for ``size`` candidates that any strategy can reach when the questions
    that still split them have at most ``branch`` answers each (see the module doc).

    >>> static_bound(1, np.array([]), False), static_bound(2, np.array([]), True)
    (1.0, 3.0)
    >>> static_bound(5, np.array([5]), False), static_bound(2, np.array([]), False)
    (10.0, inf)
    """
    return size * _envelope(tuple(sorted(branch.tolist(), reverse=True)), miss, 1.0 / size)


@cache
def _options(branch: tuple[int, ...], miss: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per-candidate (weight, turns) options, the lightest weight for each number of turns."""
    weights = 1.0 / np.cumprod((1,) + branch, dtype=float)  # 1 / W(k), k = 0..len(branch)
    ks = np.arange(len(weights))
    options: dict[float, float] = {}

    def offer(weight: float, turns: float) -> None:
        options[turns] = min(options.get(turns, np.inf), weight)

    for k, weight in zip(ks, weights):
        offer(weight, int(k) + 1)  # reached after k questions, then declared
        if miss:
            offer(weight / 2, int(k) + 2)  # the rest of a declaration with the miss
    if miss:  # a declaration's correct code paired with one of its rest: half of each
        for k1, w1 in zip(ks, weights):
            for k2, w2 in zip(ks, weights):
                offer((w1 / 2 + w2 / 2) / 2, (k1 + 1 + k2 + 2) / 2)
    turns = np.array(sorted(options))
    return np.array([options[t] for t in turns]), turns


@cache
def _envelope(branch: tuple[int, ...], miss: bool, weight: float) -> float:
    """Lower convex envelope of the options' turns at average weight ``weight``."""
    weights, turns = _options(branch, miss)
    light = weights <= weight * (1 + 1e-12)
    if not light.any():
        return INFEASIBLE
    best = float(turns[light].min())
    heavy = ~light
    if heavy.any():
        wl, tl = weights[light][:, None], turns[light][:, None]
        wh, th = weights[heavy][None, :], turns[heavy][None, :]
        share = (weight - wl) / (wh - wl)  # of the heavy option in the mix
        best = min(best, float((tl + share * (th - tl)).min()))
    return best


def lower_bound(space: CodeSpace, alive: np.ndarray, miss: bool, depth: int) -> float:
    """A lower bound on ``T(alive, miss)``: the exact recursion for ``depth`` levels, then
    :func:`static_bound` (the larger of the two wherever both apply)."""
    size = len(alive)
    if size == 1:
        return 1.0
    matrix = space.matrix(alive)
    branch = arities(matrix)
    static = static_bound(size, branch, miss)
    if depth == 0 or static == INFEASIBLE:
        return static
    best = size + _after_declaring(space, alive, branch, depth) if miss else INFEASIBLE
    for q in np.flatnonzero(_splits(matrix)):
        column = matrix[:, q]
        total = size + sum(lower_bound(space, alive[column == a], miss, depth - 1) for a in np.unique(column))
        best = min(best, total)
    return max(static, best)


def _after_declaring(space: CodeSpace, alive: np.ndarray, branch: np.ndarray, depth: int) -> float:
    """A bound on the turns left after a wrong declaration: searched for small sets, else static."""
    if len(alive) > DECLARE_SEARCH:
        return static_bound(len(alive) - 1, branch, False)
    return min(lower_bound(space, np.delete(alive, i), False, depth - 1) for i in range(len(alive)))


def _splits(matrix: np.ndarray) -> np.ndarray:
    splits: np.ndarray = (matrix != matrix[:1]).any(axis=0)
    return splits


def exact_turns(space: CodeSpace, alive: np.ndarray, miss: bool) -> float:
    """``T(alive, miss)`` by brute force (small candidate sets only: it tries every move)."""
    matrix = space.matrix(alive)
    memo: dict[tuple[frozenset[int], bool], float] = {}

    def solve(rows: frozenset[int], spare: bool) -> float:
        if len(rows) == 1:
            return 1.0
        if (rows, spare) not in memo:
            index = np.array(sorted(rows))
            sub = matrix[index]
            best = INFEASIBLE
            if spare:
                best = min(solve(rows - {r}, False) for r in rows)
            for q in np.flatnonzero(_splits(sub)):
                parts = [frozenset(index[sub[:, q] == a].tolist()) for a in np.unique(sub[:, q])]
                best = min(best, sum(solve(part, spare) for part in parts))
            memo[rows, spare] = len(rows) + best
        return memo[rows, spare]

    return solve(frozenset(range(len(alive))), miss) * 1.0


def bound_benchmark(depth: int = 2, letters: int = 10, **other: Any) -> dict[str, Any]:
    """The certified lower bound on the mean turns over every legal code (spare miss in hand)."""
    if other:
        raise OptionError(f"alphacode-bound takes --depth and --letters, not {', '.join(sorted(other))}")
    depth, letters = int(depth), int(letters)
    if not 0 <= depth <= 3:
        raise OptionError("depth must be 0 to 3 (each level costs about 40 times the one before)")
    space = CodeSpace.of(letters)
    alive = space.everything()
    started = time.perf_counter()
    total = lower_bound(space, alive, True, depth)
    return {
        "benchmark": "alphacode-bound",
        "letters": letters,
        "depth": depth,
        "codes": len(alive),
        "mean_turns_at_least": round(total / len(alive) - 5e-5, 4),
        "seconds": round(time.perf_counter() - started, 1),
    }

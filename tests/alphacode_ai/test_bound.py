"""The lower bound on Alphabet Code's best mean turns never exceeds the true optimum."""

import numpy as np
import pytest

from codecrack.bench import run_benchmark
from codecrack.core.errors import OptionError
from codecrack.games.alphacode.bound import exact_turns, lower_bound, static_bound
from codecrack.games.alphacode.solver import CodeSpace


def candidate_sets(space, count, seed):
    """Small candidate sets, half of them runs of neighbouring codes (similar, so hard to split)."""
    rng = np.random.default_rng(seed)
    for n in range(count):
        size = int(rng.integers(2, 9))
        if n % 2:
            yield np.sort(rng.choice(len(space.table), size, replace=False))
        else:
            start = int(rng.integers(0, len(space.table) - size))
            yield np.arange(start, start + size)


@pytest.mark.parametrize("miss", [True, False])
def test_the_bound_is_at_most_the_brute_force_optimum(miss):
    space = CodeSpace.of()
    for alive in candidate_sets(space, 12, seed=5):
        optimum = exact_turns(space, alive, miss)
        bounds = [lower_bound(space, alive, miss, depth) for depth in (0, 1, 2)]
        assert bounds[0] <= bounds[1] <= bounds[2] <= optimum + 1e-9


def test_a_full_search_depth_reaches_the_optimum_on_tiny_sets():
    space = CodeSpace.of()
    for alive in candidate_sets(space, 6, seed=8):
        assert lower_bound(space, alive, True, len(alive)) == pytest.approx(exact_turns(space, alive, True))


def test_the_static_bound_counts_turns_by_the_branches_left():
    assert static_bound(25, np.array([5, 5]), miss=False) == 25 * 3  # two perfect 5-way questions, then declare
    assert static_bound(2, np.array([2]), miss=True) == 3  # declare one; if wrong, the other
    assert static_bound(3, np.array([]), miss=True) == float("inf")  # nothing splits three codes


def test_the_bound_benchmark_reports_a_mean_below_the_hard_tier():
    report = run_benchmark("alphacode-bound", depth=0)
    assert report["codes"] == 44099 and 7 < report["mean_turns_at_least"] < 8.807
    with pytest.raises(OptionError, match="depth"):
        run_benchmark("alphacode-bound", depth=9)
    with pytest.raises(OptionError, match="alphacode-bound takes"):
        run_benchmark("alphacode-bound", codes=3)

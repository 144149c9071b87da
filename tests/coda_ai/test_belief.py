"""The exact belief engine against brute-force enumeration."""

from __future__ import annotations

import random

import pytest

from codecrack.games.coda.belief import (
    ANY,
    BLACK,
    DASH,
    WHITE,
    Position,
    Tile,
    _dash_cases,
    _enumerate,
    _flagged,
    _hidden_masks,
    _with_known,
    solve,
)

from .brute import brute_counts, random_position


def assert_matches_brute(position: Position) -> None:
    total, counts = brute_counts(position)
    belief = solve(position)
    assert belief.total == total
    for (r, i), by_value in counts.items():
        got = {v: int(c) for v, c in enumerate(belief.counts[r][i]) if c}
        assert got == by_value, (r, i)


@pytest.mark.parametrize("case", range(40))
def test_random_positions_match_brute_force(case):
    rng = random.Random(case)
    assert_matches_brute(random_position(rng, dashes=case % 2 == 1))


def test_missed_guesses_and_bounds():
    row = [Tile(BLACK, 2), Tile(WHITE, None, ANY & ~(1 << 4)), Tile(BLACK, None), Tile(WHITE, 6)]
    position = Position([row])
    assert_matches_brute(position)
    probs = solve(position).probs[0]
    assert probs[1][4] == 0 and probs[1][2:6].sum() == pytest.approx(1)


def test_rows_couple_through_distinct_values():
    # Two rows each holding one hidden black tile boxed into {4, 5}: they must differ.
    boxed = [Tile(WHITE, 3), Tile(BLACK, None), Tile(WHITE, 5)]
    position = Position([boxed, list(boxed)])
    belief = solve(position)
    assert belief.total == 2
    assert belief.probs[0][1][4] == pytest.approx(0.5)


def test_a_dash_may_stand_left_of_a_tile_that_entered_right_of_it():
    # Owners choose the side of a dash next to a number's sorted place, so where a tile entered
    # says nothing about whether its left neighbour is a dash.
    row = [Tile(BLACK, None), Tile(WHITE, 9)]
    belief = solve(Position([row], dashes=True))
    assert belief.counts[0][0][DASH] == 1 and belief.total == 11  # black 0-9 or the dash
    assert_matches_brute(Position([row], dashes=True))


def test_hidden_dash_anywhere():
    row = [Tile(WHITE, 2), Tile(BLACK, None), Tile(BLACK, 3)]
    belief = solve(Position([row], dashes=True))
    assert belief.total == 1 and belief.probs[0][1][DASH] == 1


def test_known_values_elsewhere_are_excluded():
    row = [Tile(BLACK, 10), Tile(BLACK, None)]
    assert solve(Position([row], elsewhere=frozenset({(BLACK, 11)}))).total == 0
    assert solve(Position([row])).total == 1


def every_dash_case(position):
    """Reference: each unseen dash in no row or at any hidden tile of its colour, one by one."""
    masks = _hidden_masks(position)
    return _enumerate(position.rows, masks, list(_dash_cases(position.rows, masks)))


@pytest.mark.parametrize("case", range(60))
def test_flagged_dash_count_matches_case_by_case_enumeration(case):
    position = random_position(random.Random(1000 + case), dashes=True, max_hidden=9)
    total, counts = every_dash_case(position)
    flagged_total, flagged = _flagged(position.rows, _hidden_masks(position))
    assert flagged_total == total
    for r, row in enumerate(position.rows):
        for i, tile in enumerate(row):
            if tile.value is None:
                assert [int(c) for c in flagged[r][i]] == [int(c) for c in counts[r][i]]


@pytest.mark.parametrize("case", range(30))
def test_dash_positions_match_brute_force(case):
    assert_matches_brute(random_position(random.Random(2000 + case), dashes=True))


def numpy_count(position):
    """Reference for the one-row fast path: the numpy programme, without dashes."""
    rows = position.rows
    return _with_known(rows, *_enumerate(rows, _hidden_masks(position), [set()]))


@pytest.mark.parametrize("case", range(80))
def test_one_hiding_row_counts_as_the_numpy_programme(case):
    rng = random.Random(3000 + case)
    position = random_position(rng, dashes=case % 4 == 3, max_hidden=rng.randint(1, 12))
    seen = [i for i, row in enumerate(position.rows) if any(t.value is None for t in row)]
    keep = rng.choice(seen) if seen else 0
    rows = [row if r == keep else [t for t in row if t.value is not None] for r, row in enumerate(position.rows)]
    if rng.random() < 0.2:  # a row out of order: no world
        rows.append([Tile(BLACK, 5), Tile(BLACK, 2)])
    position = Position(rows, position.dashes, position.elsewhere)
    masks = _hidden_masks(position)
    if any(bits >> DASH & 1 for bits in masks.values()):
        position = Position(
            [[Tile(t.color, t.value, t.allowed & ~(1 << DASH)) for t in row] for row in rows],
            position.dashes,
            position.elsewhere,
        )
    fast, reference = solve(position), numpy_count(position)
    assert [fast.top(r, i) for r, i in masks] == [reference.top(r, i) for r, i in masks]  # before any array is built
    assert [list(fast.chances(r, i)) for r, i in masks] == [reference.chances(r, i) for r, i in masks]
    assert fast.total == reference.total
    for r, row in enumerate(position.rows):
        for i in range(len(row)):
            assert fast.counts[r][i].dtype == reference.counts[r][i].dtype
            assert fast.counts[r][i].tolist() == reference.counts[r][i].tolist()
            assert fast.probs[r][i].tolist() == reference.probs[r][i].tolist()  # bit for bit
            assert fast.top(r, i) == reference.top(r, i)

"""The candidate space agrees with the engine, and the scores behave."""

import random

import numpy as np
import pytest

from codecrack.games.alphacode.codes import code_mask, random_code
from codecrack.games.alphacode.sheet import answer
from codecrack.games.alphacode.solver import (
    CodeSpace,
    answer_value,
    declare_turns,
    entropy,
    lookahead,
    one_ply,
    question_turns,
    turns_left,
)


@pytest.fixture(scope="module")
def space():
    return CodeSpace.of()


def test_answers_match_the_engine_for_every_question(space):
    rows = np.array(random.Random(2).sample(range(len(space.table)), 40))
    matrix = space.matrix(rows)
    for r, i in enumerate(rows):
        mask = code_mask(space.table.code(int(i)))
        expected = [answer_value(answer(space.sheet, q, mask)) for q in space.questions]
        assert matrix[r].tolist() == expected


def test_keep_and_counts_agree(space):
    alive = space.everything()
    counts = space.counts(alive)
    q = space.question_index({"type": "count", "row": "Q", "column": "F"})
    for value in range(5):
        assert len(space.keep(alive, q, value)) == counts[q, value]
    assert (counts.sum(axis=1) == len(alive)).all()


def test_a_wrong_declaration_removes_exactly_that_code(space):
    alive = space.everything()
    rest = space.without(alive, space.code_json(17))
    assert len(rest) == len(alive) - 1 and 17 not in rest


def test_the_secret_code_always_survives_its_answers(space):
    rng = random.Random(4)
    secret = random_code(rng, space.sheet, space.table.letters)
    alive = space.everything()
    for q in rng.sample(range(len(space.questions)), 8):
        alive = space.keep(alive, q, answer_value(answer(space.sheet, space.questions[q], code_mask(secret))))
    assert any(space.table.code(int(i)) == secret for i in alive)


def test_entropy_prefers_even_splits():
    assert entropy(np.array([[1, 1, 1, 1, 0], [3, 1, 0, 0, 0], [4, 0, 0, 0, 0]])).tolist() == pytest.approx(
        [2.0, 0.8112781, 0.0]
    )


def test_turn_estimates_grow_with_the_candidates_and_cost_more_without_a_miss():
    sizes = np.array([1, 2, 3, 10, 100, 44099, 3_000_000])
    with_miss, without = turns_left(sizes, True), turns_left(sizes, False)
    assert (np.diff(with_miss) > 0).all() and (without >= with_miss).all()
    assert with_miss[:2].tolist() == [1.0, 1.5] and without[1] == 2.0


def test_declaring_pays_with_two_candidates_and_not_with_more(space):
    pair = space.everything()[:2]
    assert declare_turns(2) == 1.5 < question_turns(space.counts(pair), True).min() == 2.0
    assert one_ply(space, pair, True) == 1.5 and one_ply(space, pair, False) == 2.0
    assert declare_turns(5) > 2.0


def test_lookahead_picks_an_informative_question_at_least_as_good_as_one_ply(space):
    alive = space.keep(space.everything(), 0, 2)
    one_value, one_q = lookahead(space, alive, True, width=1)
    two_value, two_q = lookahead(space, alive, True, width=4)
    assert entropy(space.counts(alive))[two_q] > 0
    column = space.column(alive, one_q)
    exact = 1 + sum(np.mean(column == a) * one_ply(space, alive[column == a], True) for a in np.unique(column))
    assert two_value <= exact + 1e-9

"""Public facts as code masks, and the scores the agents maximise."""

from __future__ import annotations

import numpy as np
import pytest

from codecrack.games.coding.belief import CODES, N_CODES, allowed, code_index
from codecrack.games.coding.cards import DATA_TYPES
from codecrack.games.coding.facts import Facts, data_range
from codecrack.games.coding.tactics import (
    answer_score,
    best_answer,
    exposure_after,
    information_gain,
    joint_best_answer,
    kept_mass,
    reveal_cost,
    score_gain,
)


def codes_of(mask: np.ndarray) -> set[tuple]:
    return {CODES[i] for i in np.flatnonzero(mask)}


def test_data_card_rules_out_its_range():
    facts = Facts(2)
    facts.took_data(0, "20-39")
    facts.took_data(0, "E-F")
    left = codes_of(facts.masks[0])
    assert all(code[1] not in (2, 3) and code[0] not in "EF" for code in left)
    assert len(left) == 4 * 72


def test_cannot_take_puts_the_code_inside_every_offered_range():
    facts = Facts(2)
    facts.took_data(1, "A-B")
    facts.cannot_take(1, ["C-D", "00-19"])
    assert codes_of(facts.masks[1]) == {c for c in CODES if c[0] in "CD" and c[1] in (0, 1)}


def test_reveals_wrong_decodes_and_leftover_cards():
    facts = Facts(3)
    facts.revealed(1, "x2", 7)
    facts.wrong_decode(1, ("A", 0, 7))
    facts.code_revealed(2, ("B", 1, 2))
    facts.unused(letters="C", digits=[3])
    belief, seats = facts.belief(me=0, my_code=("D", 4, 5))
    assert seats == [1, 2]
    probs = belief.probs[0]
    assert probs[code_index("A", 0, 7)] == 0
    support = codes_of(probs > 0)
    assert all(c[2] == 7 and c[0] in "AEF" and c[1] not in (1, 2, 3, 4, 5) for c in support)
    assert belief.p_code(1, code_index("B", 1, 2)) == 1
    # onlookers know nothing of seat 0's code but what the other codes exclude
    public = facts.public_belief()
    assert public.marginals(0)["letter"][1] == 0


def test_every_data_type_is_a_range_on_one_position():
    assert sum(int(data_range(t).sum()) for t in DATA_TYPES) == 2 * N_CODES
    uniform = np.full(N_CODES, 1 / N_CODES)
    assert kept_mass(uniform, "00-19") == pytest.approx(0.8)


def test_best_answer_uses_two_different_digits():
    probs = np.zeros(N_CODES)
    probs[code_index("A", 5, 1)] = 0.5
    probs[code_index("B", 2, 5)] = 0.5
    text, score = best_answer(probs)
    assert text[1] != text[2]
    assert score == pytest.approx(0.5 + 0.5 + 0.5)


@pytest.mark.parametrize("seed", range(3))
def test_the_per_symbol_argmax_is_the_best_of_all_540_answers(seed):
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.full(N_CODES, 0.05)) * (rng.random(N_CODES) < 0.3)
    probs /= probs.sum()
    text, score = best_answer(probs)
    reference, best = joint_best_answer(probs)
    assert score == pytest.approx(best, abs=1e-12) == answer_score(probs, text)
    brute = max(
        sum(p * sum(a == b for a, b in zip(code, truth)) for p, truth in zip(probs, CODES) if p) for code in CODES
    )
    assert best == pytest.approx(brute, abs=1e-12)


def test_hack_scores():
    probs = allowed(letter="A", x1=[1, 2]).astype(float)
    probs /= probs.sum()
    # asking x1 in {1,..} splits the two tens digits evenly: one bit
    assert information_gain(probs, "x1", [0, 1, 2, 3, 4]) == pytest.approx(0)
    assert information_gain(probs, "x1", [1, 5, 8]) == pytest.approx(1)
    # the letter is known: asking about it gains no score, asking the tens digit does
    assert score_gain(probs, "letter", ["A", "B", "C"]) == pytest.approx(score_gain(probs, "x1", [0, 4, 7]))
    assert score_gain(probs, "x1", [1, 5, 8]) > score_gain(probs, "letter", ["A", "B", "C"])


def test_reveal_cost_prefers_the_least_surprising_card():
    public = allowed(letter="AB").astype(float)
    public /= public.sum()
    mine = code_index("A", 3, 4)
    # letter is a coin flip among two; a digit narrows ten ways
    assert reveal_cost(public, mine, "letter") < reveal_cost(public, mine, "x1")


def test_exposure_after_a_truthful_answer():
    public = allowed(letter="AB").astype(float)
    public /= public.sum()
    mine = code_index("A", 3, 4)
    # a letter card that separates A from B doubles onlookers' chance on my code
    assert exposure_after(public, mine, "letter", ["A", "D", "E"]) == pytest.approx(2 * public[mine])
    assert exposure_after(public, mine, "letter", ["A", "B", "C"]) == pytest.approx(public[mine])

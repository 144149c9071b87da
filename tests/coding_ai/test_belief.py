"""The exact belief engine against brute-force enumeration."""

from __future__ import annotations

from itertools import permutations, product

import numpy as np
import pytest

from codecrack.games.coding.belief import (
    CODES,
    LETTERS,
    N_CODES,
    Belief,
    Inconsistent,
    allowed,
    code_index,
    in_set,
    symbol_bits,
    symbol_marginal,
    uses_none,
)


def brute_force(masks: list[np.ndarray]) -> tuple[float, list[np.ndarray]]:
    """Enumerate every tuple of allowed codes that uses no symbol twice."""
    options = [np.flatnonzero(mask) for mask in masks]
    counts = [np.zeros(N_CODES) for _ in masks]
    total = 0
    for combo in product(*options):
        symbols = [s for c in combo for s in (CODES[c][0], CODES[c][1], CODES[c][2])]
        if len(set(symbols)) == len(symbols):
            total += 1
            for player, code in enumerate(combo):
                counts[player][code] += 1
    return total, [c / total for c in counts]


def deal_brute_force(mine: tuple[str, int, int], masks: list[np.ndarray]) -> list[np.ndarray]:
    """Deal the remaining cards in every possible order, as the physical game does."""
    letters = [x for x in LETTERS if x != mine[0]]
    digits = [d for d in range(10) if d not in mine[1:]]
    k = len(masks)
    counts = [np.zeros(N_CODES) for _ in masks]
    for dealt_letters in permutations(letters, k):
        for dealt_digits in permutations(digits, 2 * k):
            codes = [code_index(dealt_letters[i], dealt_digits[2 * i], dealt_digits[2 * i + 1]) for i in range(k)]
            if all(mask[c] for mask, c in zip(masks, codes)):
                for player, code in enumerate(codes):
                    counts[player][code] += 1
    return [c / c.sum() for c in counts]


def random_masks(rng: np.random.Generator, players: int, size: int) -> list[np.ndarray]:
    masks = []
    for _ in range(players):
        mask = np.zeros(N_CODES, dtype=bool)
        mask[rng.choice(N_CODES, size=size, replace=False)] = True
        masks.append(mask)
    return masks


@pytest.mark.parametrize("players,size,seed", [(1, 50, 0), (2, 60, 1), (3, 25, 2), (3, 30, 3), (4, 12, 4), (4, 14, 5)])
def test_matches_enumeration(players, size, seed):
    rng = np.random.default_rng(seed)
    for _ in range(20):
        masks = random_masks(rng, players, size)
        total, expected = brute_force(masks)
        if total == 0:
            with pytest.raises(Inconsistent):
                Belief(masks).probs
            continue
        belief = Belief(masks)
        assert belief.total == pytest.approx(total)
        for player in range(players):
            assert np.allclose(belief.probs[player], expected[player])
        break
    else:
        pytest.fail("no consistent random case")


def test_matches_physical_deal_with_facts():
    mine = ("C", 4, 7)
    others = uses_none(symbol_bits("C", [4, 7]))
    masks = [
        others & ~in_set("x1", [0, 2, 4, 6, 8]) & allowed(letter="ABD"),
        others & in_set("x2", [1, 5, 8]) & ~allowed(letter="EF"),
    ]
    expected = deal_brute_force(mine, masks)
    belief = Belief(masks)
    for player in range(2):
        assert np.allclose(belief.probs[player], expected[player])


def test_symbols_known_elsewhere_are_excluded():
    # Player 0 certainly holds A, 1 and 2: nobody else can.
    masks = [allowed(letter="A", x1=[1], x2=[2]), allowed(), allowed()]
    belief = Belief(masks)
    for player in (1, 2):
        marginal = belief.marginals(player)
        assert marginal["letter"][0] == 0
        assert marginal["x1"][1] == 0 and marginal["x2"][2] == 0
        assert sum(marginal["letter"]) == pytest.approx(1)


def test_marginals_and_decode_probability_agree():
    rng = np.random.default_rng(9)
    masks = random_masks(rng, 3, 200)
    belief = Belief(masks)
    code, p = belief.best_code(2)
    assert belief.p_code(2, code) == p == max(belief.probs[2])
    letters = symbol_marginal(belief.probs[2], "letter")
    assert np.allclose(letters, belief.marginals(2)["letter"])
    assert letters[LETTERS.index(CODES[code][0])] >= p


def test_bad_code_is_rejected():
    with pytest.raises(ValueError, match="two different digits"):
        code_index("A", 3, 3)

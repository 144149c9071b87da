"""Scoring the choices of The Coding from beliefs: pure functions over code distributions.

Every function takes probabilities over the 540 codes (from :mod:`.belief`) and returns a
number to maximise, so the agents' tiers differ only in which scores and beliefs they use.

>>> import numpy as np
>>> uniform = np.full(540, 1 / 540)
>>> round(kept_mass(uniform, "A-B"), 3)
0.667
>>> round(best_answer(uniform)[1], 3)
0.367
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import numpy as np

from .belief import CODE_VALUES, CODES, entropy, in_set, symbol_marginal
from .cards import LETTERS, POSITIONS
from .facts import data_range


def kept_mass(public: np.ndarray, data_type: str) -> float:
    """How much of the public belief about my code survives my taking ``data_type``.

    The chance that onlookers decode my true code grows by the inverse of this, so a taker
    who wants to leak little keeps it high.
    """
    return float(public[~data_range(data_type)].sum())


def hack_split(probs: np.ndarray, position: str, values: Iterable[str | int]) -> tuple[np.ndarray, np.ndarray]:
    """The joint weights of each code with a green and with a red answer."""
    inside = in_set(position, values)
    return probs * inside, probs * ~inside


def score_gain(probs: np.ndarray, position: str, values: Iterable[str | int]) -> float:
    """Expected number of symbols named right (one-shot scoring) after the answer."""
    return sum(expected_symbols(part) for part in hack_split(probs, position, values))


def information_gain(probs: np.ndarray, position: str, values: Iterable[str | int]) -> float:
    """Expected entropy drop (bits) of the receiver's code from the answer."""
    before = entropy(probs)
    after = 0.0
    for part in hack_split(probs, position, values):
        mass = part.sum()
        if mass > 0:
            after += mass * entropy(part / mass)
    return before - after


def expected_symbols(weights: np.ndarray) -> float:
    """Sum over positions of the largest symbol weight: the expected one-shot score times mass."""
    return float(sum(symbol_marginal(weights, position).max() for position in POSITIONS))


def best_answer(probs: np.ndarray) -> tuple[str, float]:
    """The one-shot answer with the highest expected score, and that score.

    The best letter and the best pair of *different* digits maximise the sum of per-position
    probabilities, since each position scores on its own.
    """
    letter = symbol_marginal(probs, "letter")
    x1 = symbol_marginal(probs, "x1")
    x2 = symbol_marginal(probs, "x2")
    pair = x1[:, None] + x2[None, :]
    np.fill_diagonal(pair, -1.0)
    a, b = np.unravel_index(int(np.argmax(pair)), pair.shape)
    best = int(np.argmax(letter))
    return f"{LETTERS[best]}{a}{b}", float(letter[best] + pair[a, b])


def joint_best_answer(probs: np.ndarray) -> tuple[str, float]:
    """The reference for :func:`best_answer`: every one of the 540 codes scored against the full
    code distribution (expected matches, position by position), and the best of them."""
    scores = _matches() @ probs
    best = int(np.argmax(scores))
    return code_text(best), float(scores[best])


@cache
def _matches() -> np.ndarray:
    """``[c, d]``: symbols code ``c`` names right if the true code is ``d`` (0-3)."""
    matches: np.ndarray = sum((v[:, None] == v[None, :]).astype(np.float64) for v in CODE_VALUES.values())
    return matches


def answer_score(probs: np.ndarray, code: str) -> float:
    """Expected one-shot score of writing ``code`` (e.g. ``"D57"``): symbols in the right place."""
    letter, x1, x2 = code[0], int(code[1]), int(code[2])
    return float(
        symbol_marginal(probs, "letter")[LETTERS.index(letter)]
        + symbol_marginal(probs, "x1")[x1]
        + symbol_marginal(probs, "x2")[x2]
    )


def code_text(code: int) -> str:
    letter, x1, x2 = CODES[code]
    return f"{letter}{x1}{x2}"


def exposure_after(public: np.ndarray, my_code: int, position: str, values: Iterable[str | int]) -> float:
    """Onlookers' probability of my true code once I answer this hack card (truthfully)."""
    inside = in_set(position, values)
    same = inside if inside[my_code] else ~inside
    mass = public[same].sum()
    return float(public[my_code] / mass) if mass > 0 else 1.0


def reveal_cost(public: np.ndarray, my_code: int, position: str) -> float:
    """How likely onlookers find my code after I turn up the card at ``position``."""
    value = CODE_VALUES[position][my_code]
    match = CODE_VALUES[position] == value
    mass = public[match].sum()
    return float(public[my_code] / mass) if mass > 0 else 1.0

"""Exact beliefs about hidden codes in The Coding, from public facts alone.

A code is one letter A-F and two different digits in the owner's order (X1, X2): 6 * 90 = 540
codes, indexed ``0 .. 539``. Letters and digits are dealt without replacement and each owner
orders their digits, so, given what a seat knows, every tuple of codes that uses each symbol at
most once and agrees with every public fact is equally likely. Beliefs are that uniform
distribution, conditioned exactly.

Each player's facts are a weight per code (1 allowed, 0 ruled out). Codes that use the same
symbols form one of 270 *groups* (letter + unordered digit pair, a 16-bit symbol set). The
posterior of player ``a`` having code ``c`` is ``w_a[c] * free_a(group(c)) / Z``, where
``free_a(S)`` is the total weight of the other players' codes that use no symbol of ``S`` and
no symbol twice. ``free`` sums over the letter pairs and digit quadruples that two players
use together, as small gathers and sums, so four players take about a millisecond.

>>> belief = Belief([allowed(letter="A"), allowed(letter="AB")])
>>> round(belief.p_code(1, code_index("B", 1, 2)), 6) == round(1 / 90, 6)
True
>>> [round(p, 3) for p in belief.marginals(1)["letter"]]
[0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations

import numpy as np

from .cards import DIGITS, LETTERS, POSITIONS

#: Every code as (letter, x1, x2), letter as a str.
CODES: tuple[tuple[str, int, int], ...] = tuple(
    (letter, x1, x2) for letter in LETTERS for x1, x2 in permutations(DIGITS, 2)
)
N_CODES = len(CODES)
CODE_LETTER = np.array([LETTERS.index(c[0]) for c in CODES])
CODE_X1 = np.array([c[1] for c in CODES])
CODE_X2 = np.array([c[2] for c in CODES])
CODE_VALUES = {"letter": CODE_LETTER, "x1": CODE_X1, "x2": CODE_X2}
CODE_BITS = (1 << CODE_LETTER) | (1 << (6 + CODE_X1)) | (1 << (6 + CODE_X2))

GROUP_BITS, CODE_GROUP = np.unique(CODE_BITS, return_inverse=True)
N_GROUPS = len(GROUP_BITS)
_PAIR_I, _PAIR_J = np.nonzero((GROUP_BITS[:, None] & GROUP_BITS[None, :]) == 0)  # groups sharing no symbol


def _index_sets(bits: np.ndarray, shift: int, width: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Number the ``size``-element subsets of a ``width``-bit field; index each of ``bits``."""
    subsets = np.array([m for m in range(1 << width) if bin(m).count("1") == size])
    lookup = np.full(1 << width, -1)
    lookup[subsets] = np.arange(len(subsets))
    return subsets, lookup[(bits >> shift) & ((1 << width) - 1)]


def _avoiders(sets: np.ndarray, of: np.ndarray) -> np.ndarray:
    """Row ``k``: the indices of ``sets`` that share no bit with ``of[k]`` (rows are equally long).

    Sums over them are plain gathers, with no BLAS call (whose threads stall on a busy machine).
    """
    return np.array([np.flatnonzero((sets & bits) == 0) for bits in of])


# Two players use 2 letters and 4 digits: 15 letter pairs x 210 digit quadruples ("cells").
_LETTERS1, _GROUP_LETTER = _index_sets(GROUP_BITS, 0, 6, 1)
_DIGITS2, _GROUP_DIGITS = _index_sets(GROUP_BITS, 6, 10, 2)
_PAIR_BITS = GROUP_BITS[_PAIR_I] | GROUP_BITS[_PAIR_J]
_LETTERS2, _PAIR_LETTERS = _index_sets(_PAIR_BITS, 0, 6, 2)
_DIGITS4, _PAIR_DIGITS = _index_sets(_PAIR_BITS, 6, 10, 4)
_PAIR_CELL = _PAIR_LETTERS * len(_DIGITS4) + _PAIR_DIGITS
_N_CELLS = len(_LETTERS2) * len(_DIGITS4)
_GROUP_AVOIDERS = _avoiders(GROUP_BITS, GROUP_BITS)  # 270 x 140
_LETTER_AVOIDERS1 = _avoiders(_LETTERS2, _LETTERS1)  # 6 letters x 10 pairs
_DIGIT_AVOIDERS1 = _avoiders(_DIGITS4, _DIGITS2)  # 45 pairs x 70 quadruples
_LETTER_AVOIDERS2 = _avoiders(_LETTERS2, _LETTERS2)  # 15 pairs x 6 pairs
_DIGIT_AVOIDERS2 = _avoiders(_DIGITS4, _DIGITS4)  # 210 x 15 quadruples


def code_index(letter: str, x1: int, x2: int) -> int:
    """Index of a code in :data:`CODES`.

    >>> CODES[code_index("F", 9, 8)]
    ('F', 9, 8)
    """
    if letter not in LETTERS or x1 not in DIGITS or x2 not in DIGITS or x1 == x2:
        raise ValueError(f"no code {letter}{x1}{x2}: one letter A-F and two different digits")
    return LETTERS.index(letter) * 90 + x1 * 9 + (x2 if x2 < x1 else x2 - 1)


def symbol_value(position: str, symbol: str | int) -> int:
    """A symbol as the number stored in :data:`CODE_VALUES` (letters A-F are 0-5)."""
    if position == "letter":
        return LETTERS.index(str(symbol))
    return int(symbol)


def in_set(position: str, values: Iterable[str | int]) -> np.ndarray:
    """Codes whose symbol at ``position`` is one of ``values`` (a hack card answered green).

    >>> int(in_set("x1", [7, 8, 9]).sum())
    162
    """
    wanted = np.zeros(10, dtype=bool)
    wanted[[symbol_value(position, v) for v in values]] = True
    inside: np.ndarray = wanted[CODE_VALUES[position]]
    return inside


def allowed(
    letter: Iterable[str] | None = None, x1: Iterable[int] | None = None, x2: Iterable[int] | None = None
) -> np.ndarray:
    """Codes whose symbols lie in the given sets (``None``: anything).

    >>> int(allowed(letter="AB", x1=[0]).sum())
    18
    """
    mask = np.ones(N_CODES, dtype=bool)
    for position, values in (("letter", letter), ("x1", x1), ("x2", x2)):
        if values is not None:
            mask &= in_set(position, values)
    return mask


def uses_none(bits: int) -> np.ndarray:
    """Codes that use none of the symbols in the 16-bit set ``bits``."""
    avoiding: np.ndarray = (CODE_BITS & bits) == 0
    return avoiding


def symbol_bits(letters: Iterable[str] = (), digits: Iterable[int] = ()) -> int:
    """The 16-bit set of some letters and digits.

    >>> symbol_bits("B", [0, 9])
    32834
    """
    bits = 0
    for letter in letters:
        bits |= 1 << LETTERS.index(letter)
    for digit in digits:
        bits |= 1 << (6 + int(digit))
    return bits


def _pair_cells(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Two players' symbol-disjoint choices, weighted, by the cell of symbols they use together."""
    weights = first[_PAIR_I] * second[_PAIR_J]
    return np.bincount(_PAIR_CELL, weights=weights, minlength=_N_CELLS).reshape(len(_LETTERS2), -1)


def free_weight(groups: Sequence[np.ndarray]) -> np.ndarray:
    """For each group, the total weight of the players' choices that avoid its symbols.

    ``groups`` holds each player's weight per group (0 to 3 players). Players never share a
    symbol with each other either. With two or three players the sums run over cells (the
    letter pair and digit quadruple that two players use together).
    """
    if not groups:
        return np.ones(N_GROUPS)
    free: np.ndarray
    if len(groups) == 1:
        free = groups[0][_GROUP_AVOIDERS].sum(axis=1)
        return free
    if len(groups) == 2:
        by_cell = _pair_cells(*groups)
        by_pair = by_cell[:, _DIGIT_AVOIDERS1].sum(axis=2)  # letter pair x digit pair
        free = by_pair[_LETTER_AVOIDERS1].sum(axis=1)[_GROUP_LETTER, _GROUP_DIGITS]  # letter x digit pair, per group
        return free
    if len(groups) == 3:
        first, *rest = groups
        by_cell = _pair_cells(*rest)
        avoiding = by_cell[:, _DIGIT_AVOIDERS2].sum(axis=2)[_LETTER_AVOIDERS2].sum(axis=1)
        weights = first[_PAIR_J] * avoiding.ravel()[_PAIR_CELL]
        return np.bincount(_PAIR_I, weights=weights, minlength=N_GROUPS)
    raise ValueError("The Coding has at most 4 players")


def entropy(probs: np.ndarray) -> float:
    """Shannon entropy in bits.

    >>> entropy(np.array([0.5, 0.5, 0.0]))
    1.0
    """
    nonzero = probs[probs > 0]
    return float(-(nonzero * np.log2(nonzero)).sum())


class Inconsistent(ValueError):
    """No assignment of codes agrees with the facts."""


@dataclass(frozen=True)
class Belief:
    """The exact joint posterior over several players' codes.

    ``weights[i]`` is player ``i``'s weight per code (usually a boolean mask of codes that agree
    with the public facts about them; symbols known to be elsewhere already removed). Players are
    numbered by their position in ``weights``.
    """

    weights: Sequence[np.ndarray]

    @cached_property
    def _groups(self) -> list[np.ndarray]:
        return [np.bincount(CODE_GROUP, weights=np.asarray(w, dtype=float), minlength=N_GROUPS) for w in self.weights]

    @cached_property
    def probs(self) -> list[np.ndarray]:
        """Each player's probability of every code (540 floats summing to 1)."""
        out = []
        for player, weight in enumerate(self.weights):
            others = [g for other, g in enumerate(self._groups) if other != player]
            joint = np.asarray(weight, dtype=float) * free_weight(others)[CODE_GROUP]
            total = joint.sum()
            if total <= 0:
                raise Inconsistent("no codes agree with the public facts")
            out.append(joint / total)
        return out

    @cached_property
    def total(self) -> float:
        """The (weighted) number of code tuples that agree with the facts."""
        if not self.weights:
            return 1.0
        others = self._groups[1:]
        return float((np.asarray(self.weights[0], dtype=float) * free_weight(others)[CODE_GROUP]).sum())

    def p_code(self, player: int, code: int) -> float:
        """Probability that ``player``'s code is ``code``: the chance a decode of it is correct."""
        return float(self.probs[player][code])

    def marginals(self, player: int) -> dict[str, list[float]]:
        """Per-position symbol probabilities: ``{"letter": 6 floats, "x1": 10, "x2": 10}``."""
        return {position: symbol_marginal(self.probs[player], position).tolist() for position in POSITIONS}

    def best_code(self, player: int) -> tuple[int, float]:
        """The most likely code of ``player`` and its probability."""
        code = int(np.argmax(self.probs[player]))
        return code, float(self.probs[player][code])


def symbol_marginal(probs: np.ndarray, position: str) -> np.ndarray:
    """Probability of each symbol at ``position`` under a distribution over codes."""
    size = len(LETTERS) if position == "letter" else 10
    return np.bincount(CODE_VALUES[position], weights=probs, minlength=size)

"""Candidate sets and question scoring for Alphabet Code solvers.

Every question is "how many of these squares are filled?": a ``count`` question covers a zone's
4 sides, a ``filled`` question one square (answer 0 or 1). So the answer of question ``q`` for
code ``i`` is ``popcount(words[i] & qwords[q])``, computed for a whole candidate set at once.
A candidate set is a numpy vector of row indices into :func:`codes.legal_codes` (every legal code
is equally likely, as the engine draws them).

>>> space = CodeSpace.of()
>>> alive = space.everything()
>>> len(alive), len(space.questions)
(44099, 44)
>>> q = space.question_index({"type": "count", "row": "O", "column": "D"})
>>> counts = space.counts(alive)
>>> int(counts[q].sum())
44099
>>> alive = space.keep(alive, q, 3)
>>> bool((space.column(alive, q) == 3).all())
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ...core.lru import WORK_CACHE
from .codes import (
    CodeTable,
    code_mask,
    count_answers,
    legal_codes,
    parse_code,
    popcount,
    question_mask,
    split_words,
    table_bytes,
)
from .letters import LETTER_SETS
from .sheet import Sheet, all_questions

MAX_ANSWER = 4  # a zone has 4 sides
MATRIX_ROWS = 20_000  # bigger candidate sets are counted question by question


@dataclass(frozen=True, eq=False)
class CodeSpace:
    """The legal codes of one setup and the questions one may ask about them."""

    table: CodeTable
    questions: tuple[dict[str, Any], ...]
    qwords: np.ndarray  # (questions, words) uint64: the squares each question covers
    setup: tuple[int, int, int, bool]  # letters, columns, rows, real_words
    greedy_memo: dict[tuple[bytes, bool], float] = field(default_factory=dict)  # see greedy_turns

    @staticmethod
    def of(letters: int = 10, columns: int = 13, rows: int = 5, real_words: bool = False) -> CodeSpace:
        """The (cached) space for a game's options."""
        return _space(int(letters), int(columns), int(rows), bool(real_words))

    @staticmethod
    def for_view(view: dict[str, Any]) -> CodeSpace:
        options = view["options"]
        return CodeSpace.of(options["letters"], options["columns"], options["rows"], options["real_words"])

    @property
    def sheet(self) -> Sheet:
        return self.table.sheet

    def everything(self) -> np.ndarray:
        return np.arange(len(self.table), dtype=np.int64)

    def question_index(self, question: dict[str, Any]) -> int:
        return self._question_numbers[question["type"], question["row"].upper(), question["column"].upper()]

    @cached_property
    def _question_numbers(self) -> dict[tuple[str, str, str], int]:
        return {(q["type"], q["row"], q["column"]): i for i, q in enumerate(self.questions)}

    # -- answers of many codes at once --------------------------------------------
    def column(self, alive: np.ndarray, q: int) -> np.ndarray:
        """Answers (0-4) of question ``q`` for every code in ``alive``."""
        return self._answers(self.table.words[alive], q)

    def _answers(self, words: np.ndarray, q: int) -> np.ndarray:
        return count_answers(words, self.qwords[q])

    def matrix(self, alive: np.ndarray) -> np.ndarray:
        """``(len(alive), questions)`` answers; callers keep ``alive`` small (see :meth:`counts`)."""
        words = self.table.words[alive]
        answers = popcount(words[:, None, 0] & self.qwords[None, :, 0])
        for w in range(1, words.shape[1]):
            answers += popcount(words[:, None, w] & self.qwords[None, :, w])
        return answers

    def counts(self, alive: np.ndarray) -> np.ndarray:
        """``counts[q, a]``: how many codes of ``alive`` answer ``a`` to question ``q``."""
        if len(alive) <= MATRIX_ROWS:
            return answer_counts(self.matrix(alive))
        words = self.table.words[alive]
        return np.stack(
            [np.bincount(self._answers(words, q), minlength=MAX_ANSWER + 1) for q in range(len(self.questions))]
        )

    def keep(self, alive: np.ndarray, q: int, answer: int) -> np.ndarray:
        """The codes of ``alive`` that answer ``answer`` to question ``q``."""
        kept: np.ndarray = alive[self.column(alive, q) == answer]
        return kept

    def without(self, alive: np.ndarray, letters: list[dict[str, str]]) -> np.ndarray:
        """``alive`` minus the code written as ``letters`` (a wrong declaration)."""
        mask = code_mask(parse_code(letters, self.sheet, self.table.letters))
        target = split_words(mask, self.table.words.shape[1])
        kept: np.ndarray = alive[~np.all(self.table.words[alive] == target, axis=1)]
        return kept

    def code_json(self, i: int) -> list[dict[str, str]]:
        return self.table.code_json(int(i))


def _space(letters: int, columns: int, rows: int, real_words: bool) -> CodeSpace:
    space: CodeSpace = WORK_CACHE.get(
        ("space", letters, columns, rows, real_words),
        lambda: _new_space(letters, columns, rows, real_words),
        lambda space: table_bytes(space.table),  # counted again beside its table: an upper bound
    )
    return space


def _new_space(letters: int, columns: int, rows: int, real_words: bool) -> CodeSpace:
    table = legal_codes(LETTER_SETS[letters], columns, rows, real_words)
    questions = tuple(all_questions(table.sheet))
    qwords = np.stack([split_words(question_mask(table.sheet, q), table.words.shape[1]) for q in questions])
    return CodeSpace(table, questions, qwords, (letters, columns, rows, real_words))


# -- what the solver costs ---------------------------------------------------------------
# Legal codes of each setup (letters, columns, rows) up to 21 million, measured with
# ``codecrack bench budget`` (docs/security.md); a real-words table is built from its setup's.
# Bigger setups (10 letters on 17 x 7 has 36 million) were never measured: their cost is unknown.
MEASURED_CODES = {
    (10, 13, 5): 44_099,
    (10, 15, 5): 229_364,
    (10, 17, 5): 815_885,
    (10, 19, 5): 2_271_662,
    (10, 21, 5): 5_344_295,
    (10, 23, 5): 11_128_184,
    (10, 25, 5): 21_131_729,
    (10, 13, 7): 3_248_862,
    (10, 15, 7): 12_305_895,
    (20, 13, 5): 2_803_383,
    (20, 15, 5): 14_911_586,
}
# Per legal code, the most that building the table and one AI move took (the first move is the
# biggest: every code is a candidate): peak memory above the process's own, and CPU time.
PEAK_BYTES_PER_CODE = 130
SECONDS_PER_CODE = 1.5e-6


def solver_cost(letters: int, columns: int, rows: int) -> tuple[float, float]:
    """(peak bytes, CPU seconds) of one AI move, hint or review step on this setup; infinite
    when it was never measured.

    >>> solver_cost(10, 13, 5)
    (5732870.0, 0.0661485)
    >>> solver_cost(20, 25, 13)
    (inf, inf)
    """
    codes = MEASURED_CODES.get((letters, columns, rows))
    if codes is None:
        return float("inf"), float("inf")
    return float(codes * PEAK_BYTES_PER_CODE), codes * SECONDS_PER_CODE


def answer_value(answer: int | bool) -> int:
    """The engine answers ``filled`` with True/False; as a count that is 1/0."""
    return int(answer)


def answer_counts(matrix: np.ndarray) -> np.ndarray:
    """``(questions, 5)`` histogram of an answer matrix, one ``bincount`` for all questions.

    >>> answer_counts(np.array([[0, 4], [0, 1], [2, 1]], dtype=np.uint8)).tolist()
    [[2, 0, 1, 0, 0], [0, 2, 0, 0, 1]]
    """
    n_questions = matrix.shape[1]
    keys = matrix.astype(np.int64) + (MAX_ANSWER + 1) * np.arange(n_questions)
    return np.bincount(keys.ravel(), minlength=(MAX_ANSWER + 1) * n_questions).reshape(n_questions, -1)


def entropy(counts: np.ndarray) -> np.ndarray:
    """Entropy in bits of each question's answer distribution (rows of ``counts``).

    >>> entropy(np.array([[2, 2, 0, 0, 0], [3, 0, 0, 0, 0]])).round(6).tolist()
    [1.0, 0.0]
    """
    total = np.maximum(counts.sum(axis=-1), 1)
    weighted = counts * np.log2(np.maximum(counts, 1))
    return np.where(informative(counts), np.log2(total) - weighted.sum(axis=-1) / total, 0.0)


def informative(counts: np.ndarray) -> np.ndarray:
    """Which questions could still split the candidates (two or more answers occur)."""
    splitting: np.ndarray = np.count_nonzero(counts, axis=-1) > 1
    return splitting


# -- how many turns a candidate set still costs ---------------------------------------
# Measured with the greedy solver on the default setup (turns left, final declaration included,
# with a miss still in hand) against log2 of the candidate count; past the last point each bit
# costs 0.47 turns, the slope of the measured tail.
_LOG_SIZES = np.log2([1, 2, 3, 4, 5.5, 8.5, 15, 35, 75, 200, 650, 3000, 12500, 44099])
_TURNS = np.array([1, 1.5, 2.2, 2.37, 2.67, 3.03, 3.48, 4.08, 4.49, 5.15, 5.97, 6.93, 7.87, 8.84])
_TAIL_SLOPE = 0.47
_NO_MISS_COST = 0.35  # without a spare miss a pair costs 2 turns, not 1.5; on average this much more


def turns_left(sizes: np.ndarray | int, miss: bool) -> np.ndarray:
    """Estimated turns to finish from a candidate set of each size (0 for an empty set).

    ``miss``: a wrong declaration is still allowed, so a pair costs 1.5 turns on average.

    >>> turns_left(np.array([0, 1, 2]), miss=True).tolist(), turns_left(2, miss=False).tolist()
    ([0.0, 1.0, 1.5], 2.0)
    """
    sizes = np.asarray(sizes, dtype=float)
    log_size = np.log2(np.maximum(sizes, 1))
    turns = np.interp(log_size, _LOG_SIZES, _TURNS) + _TAIL_SLOPE * np.maximum(log_size - _LOG_SIZES[-1], 0)
    if not miss:
        turns = turns + np.where(sizes == 2, 0.5, np.where(sizes > 2, _NO_MISS_COST, 0.0))
    return np.where(sizes > 0, turns, 0.0)


def question_turns(counts: np.ndarray, miss: bool) -> np.ndarray:
    """Expected turns to finish if each question is asked now (one turn plus what is left)."""
    total = counts.sum(axis=-1)
    turns: np.ndarray = 1 + (counts * turns_left(counts, miss)).sum(axis=-1) / np.maximum(total, 1)
    return turns


def declare_turns(size: int) -> float:
    """Expected turns when declaring one of ``size`` candidates now, spending the spare miss.

    >>> declare_turns(2), round(declare_turns(3), 3)
    (1.5, 2.333)
    """
    return 1 + (size - 1) / size * float(turns_left(size - 1, miss=False))


def lookahead(space: CodeSpace, alive: np.ndarray, miss: bool, width: int) -> tuple[float, int]:
    """Two-ply search: the ``width`` best questions by :func:`question_turns`, each scored by the
    best follow-up question in every answer branch. Returns (expected turns, question index)."""
    scores = question_turns(space.counts(alive), miss)
    if width <= 1 or len(alive) <= 2:
        best = int(np.argmin(scores))
        return float(scores[best]), best
    best_value, best_q = np.inf, -1
    for q in np.argsort(scores, kind="stable")[:width]:
        column = space.column(alive, int(q))
        value = 1.0
        for answer in np.unique(column):
            branch = alive[column == answer]
            share = len(branch) / len(alive)
            value += share * one_ply(space, branch, miss)
        if value < best_value:
            best_value, best_q = value, int(q)
    return best_value, best_q


def one_ply(space: CodeSpace, alive: np.ndarray, miss: bool) -> float:
    """Expected turns from ``alive`` with the best single next move: a question or, with a spare
    miss, a declaration."""
    if len(alive) == 1:
        return 1.0
    best = float(question_turns(space.counts(alive), miss).min())
    return min(best, declare_turns(len(alive))) if miss else best


def greedy_turns(
    matrix: np.ndarray, codes: np.ndarray, rows: np.ndarray, miss: bool, memo: dict[tuple[bytes, bool], float]
) -> float:
    """Exact expected turns of the greedy policy (ask the question with the most entropy; with a
    spare miss, declare one of a pair) from the candidates ``codes[rows]``, whose answers are the
    rows ``rows`` of ``matrix``. Results are kept in ``memo`` (the space's) by candidate set."""
    if len(rows) <= 2:
        return 1.0 if len(rows) == 1 else (1.5 if miss else 2.0)
    key = (codes[rows].tobytes(), miss)
    if key not in memo:
        if len(memo) > GREEDY_MEMO_SIZE:
            memo.clear()
        sub = matrix[rows]
        column = sub[:, int(np.argmax(entropy(answer_counts(sub))))]
        sizes = np.bincount(column)
        total = 0.0
        for answer in np.flatnonzero(sizes):
            total += sizes[answer] * greedy_turns(matrix, codes, rows[column == answer], miss, memo)
        memo[key] = 1 + total / len(rows)
    return memo[key]


GREEDY_MEMO_SIZE = 200_000


def rollout(space: CodeSpace, alive: np.ndarray, miss: bool, width: int) -> tuple[float, int]:
    """One step of policy improvement over the greedy policy: for the ``width`` best questions by
    :func:`question_turns`, the exact expected turns when the greedy policy plays on after them.
    Returns (expected turns, question index)."""
    matrix = space.matrix(alive)
    rows = np.arange(len(alive))
    scores = question_turns(answer_counts(matrix), miss)
    best_value, best_q = np.inf, -1
    for q in np.argsort(scores, kind="stable")[:width]:
        column = matrix[:, q]
        value = 1.0
        for answer in np.unique(column):
            branch = rows[column == answer]
            value += len(branch) / len(rows) * greedy_turns(matrix, alive, branch, miss, space.greedy_memo)
        if value < best_value:
            best_value, best_q = value, int(q)
    return best_value, best_q

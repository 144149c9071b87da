"""Code making: a code that is hard to crack (a random legal code is the engine's ``random_code``).

A code is hard to crack when many legal codes look like it: the last questions of any solver are
spent telling apart codes that differ in a square or two. :func:`tricky_code` samples legal codes
and keeps the one with the most look-alikes (codes differing in at most ``LOOKALIKE_SQUARES``
squares).

>>> import random
>>> space = CodeSpace.of()
>>> i = tricky_code(space, random.Random(0))
>>> typical = np.median(lookalikes(space, np.arange(0, len(space.table), 997)))
>>> bool(lookalikes(space, np.array([i]))[0] > typical)
True
"""

from __future__ import annotations

import random

import numpy as np

from .codes import popcount
from .solver import CodeSpace

LOOKALIKE_SQUARES = 2
SAMPLE_WORK = 2_000_000  # code comparisons per made code; bounds the sample on big letter sets


def lookalikes(space: CodeSpace, codes: np.ndarray) -> np.ndarray:
    """For each code index in ``codes``, how many other legal codes differ from it in at most
    ``LOOKALIKE_SQUARES`` squares."""
    words = space.table.words
    found = []
    for i in codes:
        distance = popcount(words[:, 0] ^ words[i, 0]).astype(np.int64)
        for w in range(1, words.shape[1]):
            distance += popcount(words[:, w] ^ words[i, w])
        found.append(int(np.count_nonzero(distance <= LOOKALIKE_SQUARES)) - 1)
    return np.array(found)


def tricky_code(space: CodeSpace, rng: random.Random) -> int:
    """Index of a hard-to-crack code: the sampled legal code with the most look-alikes."""
    samples = max(4, min(64, SAMPLE_WORK // len(space.table)))
    sample = np.array([rng.randrange(len(space.table)) for _ in range(samples)])
    return int(sample[np.argmax(lookalikes(space, sample))])

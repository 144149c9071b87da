"""The hard tier's opening book: its first questions on the default setup, searched offline.

A rollout search over the full 44,099 candidates takes tens of seconds, so the book stores the
hard tier's question for every answer history of up to ``BOOK_DEPTH`` answers on the default
setup (letters a-j, 13 x 5 sheet). The book is data: rebuild it with
``python -m codecrack.games.alphacode.opening`` (a few minutes on one core).

>>> space = CodeSpace.of()
>>> book_question(space, [])["type"]
'count'
>>> book_question(CodeSpace.of(10, 15, 5), []) is None
True
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from .solver import CodeSpace, rollout

BOOK_FILE = Path(__file__).with_name("opening.json")
BOOK_DEPTH = 4
BOOK_WIDTH = 10  # questions tried by each rollout search (the live search tries fewer)


def history_key(space: CodeSpace, answers: list[tuple[int, int]]) -> str:
    """A history as text, order-free: ``"count OB=3|filled QI=1"``."""
    return "|".join(
        sorted(
            f"{space.questions[q]['type']} {space.questions[q]['row']}{space.questions[q]['column']}={a}"
            for q, a in answers
        )
    )


def is_default(space: CodeSpace) -> bool:
    return space.setup == (10, 13, 5, False)


def build_book(space: CodeSpace) -> dict[str, dict[str, Any]]:
    """Search the hard tier's question for every history of up to ``BOOK_DEPTH`` answers."""
    book: dict[str, dict[str, Any]] = {}

    def visit(alive: np.ndarray, answers: list[tuple[int, int]]) -> None:
        if len(alive) <= 2 or len(answers) > BOOK_DEPTH:
            return
        _, q = rollout(space, alive, True, BOOK_WIDTH)
        book[history_key(space, answers)] = dict(space.questions[q])
        column = space.column(alive, q)
        for answer in np.unique(column):
            visit(alive[column == answer], answers + [(q, int(answer))])

    visit(space.everything(), [])
    return book


@cache
def _book() -> dict[str, dict[str, Any]]:
    book: dict[str, dict[str, Any]] = json.loads(BOOK_FILE.read_text())
    return book


def book_question(space: CodeSpace, answers: list[tuple[int, int]]) -> dict[str, Any] | None:
    """The book's question after ``answers`` (question index, answer), or ``None`` if not in it."""
    if not is_default(space) or len(answers) > BOOK_DEPTH:
        return None
    question = _book().get(history_key(space, answers))
    return None if question is None else dict(question)


if __name__ == "__main__":
    BOOK_FILE.write_text(json.dumps(build_book(CodeSpace.of()), indent=0, sort_keys=True) + "\n")

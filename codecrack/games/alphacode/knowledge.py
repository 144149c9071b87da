"""What one seat knows about a code, folded from its views into a candidate vector.

A seat learns from the public answers about its target code and from its own wrong
declarations (and, in a duel, every wrong declaration: they are spoken aloud). The tracker keeps
the candidate vector between views and folds in only what is new.

>>> import codecrack
>>> game = codecrack.new_game("alphacode", players=2, seed=1, first=0)
>>> for seat in (0, 1):
...     _ = game.apply(seat, {"type": "random_code"})
>>> _ = game.apply(0, {"type": "count", "row": "O", "column": "B"})
>>> tracker = Tracker("target")
>>> alive = tracker.update(game.view(0))
>>> 0 < len(alive) < 44099
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .solver import CodeSpace, answer_value


class Tracker:
    """The candidates for the code of the seat a view names under ``about``: ``"target"`` (the code
    the seat cracks) or ``"seat"`` (its own code, as its opponent sees it), kept up to date view by view.

    A tracker sent to another process (pickled) leaves its candidates behind: the next view reads
    them again, to the same vector.
    """

    def __init__(self, about: str) -> None:
        self.about = about
        self._forget()

    def _forget(self) -> None:
        self._key: tuple[object, ...] | None = None
        self.alive = np.zeros(0, dtype=np.int64)
        self.answers: list[tuple[int, int]] = []  # (question index, answer) folded so far
        self._declarations = 0

    def __getstate__(self) -> dict[str, Any]:
        return {"about": self.about}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.about = state["about"]
        self._forget()

    def update(self, view: dict[str, Any]) -> np.ndarray:
        space = CodeSpace.for_view(view)
        target = view[self.about]
        key = (space.setup, view["round"], target)
        asked = [entry for entry in view["questions"] if entry["target"] == target]
        wrong = [d for d in view["declarations"] if d["target"] == target and not d["correct"]]
        if key != self._key or len(asked) < len(self.answers) or len(wrong) < self._declarations:
            self._key, self.alive, self.answers, self._declarations = key, space.everything(), [], 0
        for entry in asked[len(self.answers) :]:
            q, answer = space.question_index(entry["question"]), answer_value(entry["answer"])
            self.alive = space.keep(self.alive, q, answer)
            self.answers.append((q, answer))
        for declaration in wrong[self._declarations :]:
            self.alive = space.without(self.alive, declaration["letters"])
        self._declarations = len(wrong)
        return self.alive

    @property
    def pristine(self) -> bool:
        """True when only answers (no wrong declaration) shaped the candidates."""
        return self._declarations == 0

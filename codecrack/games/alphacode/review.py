"""Alphabet Code review: every question by its expected information (the entropy of its answer
over the seat's candidates, against the most informative question), and every declaration:
a code the answers already ruled out, or declaring while several candidates are left (expected
turns with a spare miss, the chance of elimination without one).

Candidates are the seat's own :class:`~codecrack.games.alphacode.knowledge.Tracker` over its
views: every legal code that fits the answers it saw, all equally likely.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...i18n import N_, _
from ...review.core import BITS, CHANCE, TURNS, Decision
from .knowledge import Tracker
from .solver import CodeSpace, declare_turns, entropy, question_turns

QUESTIONS = ("count", "filled")


def question_text(question: dict[str, Any]) -> str:
    text = _("zone {at}") if question["type"] == "count" else _("square {at}")
    return text.format(at=f"{question['row'].upper()}{question['column'].upper()}")


class AlphacodeReviewer:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.tracker = Tracker("target")

    def review(self, step: int, view: dict[str, Any], action: dict[str, Any]) -> list[Decision]:
        kind = action.get("type")
        if view["phase"] == "code" or view.get("target") is None or kind not in (*QUESTIONS, "declare"):
            return []
        space = CodeSpace.for_view(view)
        alive = self.tracker.update(view)
        if not len(alive):
            return []
        if kind == "declare":
            return [self.declaration(step, view, space, alive, action)]
        return [self.question(step, space, alive, action)]

    def question(self, step: int, space: CodeSpace, alive: np.ndarray, action: dict[str, Any]) -> Decision:
        gains = entropy(space.counts(alive))
        asked, best = space.question_index(action), int(np.argmax(gains))
        note = (
            _("{count} candidates; you could already tell the answer") if gains[asked] <= 0 else _("{count} candidates")
        ).format(count=len(alive))
        return Decision.judge(
            step,
            N_("question"),
            BITS,
            question_text(action),
            float(gains[asked]),
            question_text(space.questions[best]),
            float(gains[best]),
            note,
            worst=gains[asked] <= 0,
        )

    def declaration(
        self, step: int, view: dict[str, Any], space: CodeSpace, alive: np.ndarray, action: dict[str, Any]
    ) -> Decision:
        n = len(alive)
        candidate = len(space.without(alive, action["letters"])) < n  # the engine accepted it: well formed
        chance = 1 / n if candidate else 0.0
        if not candidate:
            return Decision.judge(
                step,
                N_("declaration"),
                CHANCE,
                _("declared a ruled-out code"),
                0.0,
                _("declare one of the {count} candidates").format(count=n),
                1 / n,
                _("the answers you saw rule that code out"),
                worst=True,
            )
        if n == 1 or view["phase"] != "play":  # sure, or a last chance where only declaring is allowed
            return Decision.judge(
                step, N_("declaration"), CHANCE, _("declared (1 of {count})").format(count=n), chance, "", chance
            )
        if view["misses"][view["seat"]] == 0:
            asking = float(question_turns(space.counts(alive), miss=True).min())
            return Decision.judge(
                step,
                N_("declare or ask"),
                TURNS,
                _("declared 1 of {count} candidates").format(count=n),
                declare_turns(n),
                _("ask the best question"),
                asking,
                _("expected turns to finish, spending the spare miss"),
            )
        return Decision.judge(
            step,
            N_("declare or ask"),
            CHANCE,
            _("declared 1 of {count} candidates without a spare miss").format(count=n),
            chance,
            _("ask the best question"),
            1.0,
            _("chance of not being eliminated"),
        )


REVIEWER = AlphacodeReviewer  # read by codecrack.review.core.reviewer_for

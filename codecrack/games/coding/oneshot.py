"""One-shot mode after the 5 hacking rounds: every player writes a code for every opponent.

Answers stay secret until everyone has written all of theirs, then they are revealed at once.
Each symbol named in the right position scores 1 point (at most 3 per opponent); the highest
total wins and ties share the win.

>>> score_answer({"letter": "D", "x1": 5, "x2": 7}, {"letter": "D", "x1": 7, "x2": 5})
1
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction, SeatNumber
from ...core.game import Action, Event
from ...core.shape import check_keys
from ...i18n import N_
from .cards import POSITIONS, Code, all_code_texts, code_text, parse_code
from .checks import check_seat_number
from .table import CodingTable


def score_answer(truth: Code, answer: Code) -> int:
    """Points for one written answer: matching symbols, position by position."""
    return sum(truth[p] == answer[p] for p in POSITIONS)


class OneShotPhase(CodingTable):
    """Mixin for :class:`~codecrack.games.coding.rules.CodingGame`: one-shot's written answers."""

    def _init_answers(self) -> None:
        self.answers: dict[int, dict[int, Code]] = {seat: {} for seat in range(self.players)}

    def _start_answers(self) -> list[Event]:
        self.phase, self.step, self.turn = "answering", "answers", None
        return self.log({"type": "phase", "phase": "answering"})

    def unanswered(self, seat: int) -> list[int]:
        return [t for t in range(self.players) if t != seat and t not in self.answers[seat]]

    def _answer_movers(self) -> set[int]:
        return {seat for seat in range(self.players) if self.unanswered(seat)}

    def _result_extras(self) -> dict[str, Any]:
        if self.options.mode != "one-shot":
            return {}
        return {
            "answers": {str(s): {str(t): code_text(c) for t, c in sorted(a.items())} for s, a in self.answers.items()}
        }

    def _legal_answers(self, seat: int) -> list[Action]:
        codes = all_code_texts()
        return [{"type": "answer", "codes": {str(t): code}} for t in self.unanswered(seat) for code in codes]

    def _check_answer(self, seat: int, action: Action) -> dict[int, Code]:
        check_keys(action, "codes")
        given = action["codes"]
        if not isinstance(given, dict) or not given:
            raise IllegalAction(N_('\'codes\' maps opponent seats to codes, like {"1": "D57"}'))
        written: dict[int, Code] = {}
        for key, text in given.items():
            target = check_seat_number(
                int(key) if isinstance(key, str) and key.isdecimal() else key,
                self.players,
                "codes",
                N_("each key of {key!r} must be a seat from 0 to {last}, not {value!r}"),
            )
            if target not in self.unanswered(seat):
                raise IllegalAction(N_("you have no answer left to write for seat {seat}"), seat=SeatNumber(target))
            written[target] = parse_code(text)
        return written

    def _act_answer(self, seat: int, action: Action) -> list[Event]:
        written = self._check_answer(seat, action)
        self.answers[seat].update(written)
        events = self.log({"type": "answered", "seat": seat, "targets": sorted(written)})
        if self._answer_movers():
            return events
        return events + self._score()

    def _score(self) -> list[Event]:
        scores = [
            sum(score_answer(self.sheets[t].fixed_code, code) for t, code in self.answers[seat].items())
            for seat in range(self.players)
        ]
        best = max(scores)
        return self.finish([s for s in range(self.players) if scores[s] == best], N_("highest score"), scores)

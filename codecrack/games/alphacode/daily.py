"""The daily Alphabet Code: one code a UTC day, the same for everyone, solved alone.

The code of a day is drawn from a server secret (an HMAC of the date), so nobody can compute
tomorrow's without it. A player asks questions about the code and declares it, as a solver does
in a game (classic options: letters a-j, the 13 x 5 sheet). The score is the number of turns
spent: questions plus wrong declarations (the correct declaration is free). A second wrong
declaration ends the attempt unsolved, as in a duel; giving up ends it too.

>>> from datetime import date
>>> code = code_of_day(b"secret", date(2026, 12, 3))
>>> solo = Solo(code)
>>> solo.play({"type": "count", "row": "O", "column": "D"})["type"]
'answer'
>>> solo.view()["codes"] is None  # the code stays on the server until the attempt is over
True
>>> _ = solo.play({"type": "declare", "letters": legal_codes().code_json(code)})
>>> solo.solved, solo.score
(True, 1)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import date
from typing import Any

from ...core.daily import SoloDaily, number_of_day
from ...core.errors import IllegalAction
from ...core.registry import new_game
from ...core.runner import run_game
from ...i18n import N_, _
from .agents import HardSolver, Sparring
from .codes import check_code, code_json, code_mask, legal_codes, parse_code, settled_code
from .letters import GLYPHS
from .rules import MISSES_ALLOWED
from .sheet import all_questions, answer, question_cell, settled_masks

OPTIONS = {"letters": 10, "columns": 13, "rows": 5, "real_words": False, "handicap": 0, "creator": None}
ZONE_SQUARES = ("⬛", "🟦", "🟩", "🟧", "🟥")  # a zone's count of filled sides, 0-4
SQUARE_ANSWERS = {True: "🟨", False: "⬜"}
ENDINGS = {"solved": "✅", "missed": "❌", "gave_up": "🏳️"}
GRID_WIDTH = 5


def code_of_day(secret: bytes, day: date) -> int:
    """The index (into :func:`legal_codes`) of ``day``'s code under the server's ``secret``."""
    return number_of_day(secret, day, "alphacode-daily", len(legal_codes()))


class Solo:
    """One attempt at code number ``code``; ``moves`` replays the actions stored so far."""

    def __init__(self, code: int, moves: Sequence[dict[str, Any]] = ()) -> None:
        self.table = legal_codes()
        self.sheet = self.table.sheet
        self.code = self.table.code(code)
        self.questions: list[dict[str, Any]] = []
        self.declarations: list[dict[str, Any]] = []
        self.ending: str | None = None  # "solved", "missed" (two wrong declarations) or "gave_up"
        for move in moves:
            self.play(move)

    @property
    def over(self) -> bool:
        return self.ending is not None

    @property
    def solved(self) -> bool:
        return self.ending == "solved"

    @property
    def misses(self) -> int:
        return sum(not d["correct"] for d in self.declarations)

    @property
    def score(self) -> int:
        """Turns spent: questions and wrong declarations."""
        return len(self.questions) + self.misses

    def play(self, action: Any) -> dict[str, Any]:
        """Apply a question, a declaration or ``give_up``; the event, or :class:`IllegalAction`."""
        if not isinstance(action, dict):
            raise IllegalAction(N_("an action is a JSON object with a 'type'"))
        if self.over:
            raise IllegalAction(N_("this attempt is over"))
        kind = action.get("type")
        if kind in ("count", "filled"):
            return self._ask(action)
        if kind == "declare":
            return self._declare(action)
        if kind == "give_up" and set(action) == {"type"}:
            self.ending = "gave_up"
            return {"type": "gave_up"}
        raise IllegalAction(N_("a daily action is count, filled, declare or give_up"))

    def _ask(self, action: dict[str, Any]) -> dict[str, Any]:
        if set(action) != {"type", "row", "column"}:
            raise IllegalAction(N_("a question takes type, row and column"))
        row, column = question_cell(self.sheet, action)
        question = {
            "type": action["type"],
            "row": self.sheet.row_labels[row],
            "column": self.sheet.column_labels[column],
        }
        if any(entry["question"] == question for entry in self.questions):
            raise IllegalAction(N_("this question was already asked"))
        entry = {
            "type": "answer",
            "seat": 0,
            "target": 1,
            "question": question,
            "answer": answer(self.sheet, question, code_mask(self.code)),
        }
        self.questions.append(entry)
        return entry

    def _declare(self, action: dict[str, Any]) -> dict[str, Any]:
        if set(action) != {"type", "letters"}:
            raise IllegalAction(N_("a declaration takes type and letters"))
        guess = parse_code(action["letters"], self.sheet, self.table.letters)
        check_code(guess, self.sheet, self.table.letters)
        correct = set(guess) == set(self.code)
        letters = code_json(guess, self.sheet)
        self.declarations.append({"seat": 0, "target": 1, "letters": letters, "correct": correct})
        if correct:
            self.ending = "solved"
        elif self.misses > MISSES_ALLOWED:
            self.ending = "missed"
        return {"type": "declared", "seat": 0, "correct": correct, "letters": letters}

    def _settled_code(self) -> list[dict[str, str]] | None:
        """The code, once the answers settle every square (as the game offers it to declare)."""
        return settled_code(*settled_masks(self.sheet, self.questions), self.sheet, self.table.letters)

    def legal_actions(self) -> list[dict[str, Any]]:
        if self.over:
            return []
        asked = [entry["question"] for entry in self.questions]
        settled = self._settled_code()
        declare = [] if settled is None else [{"type": "declare", "letters": settled}]
        return [q for q in all_questions(self.sheet) if q not in asked] + declare

    def view(self) -> dict[str, Any]:
        """The attempt in the shape of an Alphabet Code seat's view (seat 0 cracking seat 1's
        code), so that the game's board draws it. The code is in it only once the attempt is over."""
        return {
            "game": "alphacode",
            "seat": 0,
            "players": 2,
            "options": dict(OPTIONS, first=0),
            "sheet": self.sheet.describe(),
            "letters": self.table.letters,
            "glyphs": {letter: GLYPHS[letter] for letter in self.table.letters},
            "mode": "duel",
            "creator": None,
            "round": 1,
            "phase": "over" if self.over else "play",
            "first": 0,
            "to_move": [] if self.over else [0],
            "handicap_left": 0,
            "coded": [True, True],
            "code": None,
            "target": 1,
            "questions": list(self.questions),
            "declarations": list(self.declarations),
            "misses": [self.misses, 0],
            "eliminated": [],
            "pending": [],
            "past_rounds": [],
            "codes": [None, code_json(self.code, self.sheet)] if self.over else None,
            "history": [],
            "result": None,
            "legal_actions": self.legal_actions(),
        }

    def grid(self) -> list[str]:
        """The answers in the order asked as coloured squares, then how it ended: nothing about
        where the questions were asked, nor the code (the text to share)."""
        marks = [
            ZONE_SQUARES[entry["answer"]] if entry["question"]["type"] == "count" else SQUARE_ANSWERS[entry["answer"]]
            for entry in self.questions
        ]
        marks += [ENDINGS["missed"]] * min(self.misses, MISSES_ALLOWED)
        lines = ["".join(marks[i : i + GRID_WIDTH]) for i in range(0, len(marks), GRID_WIDTH)]
        return lines + ([ENDINGS[self.ending]] if self.ending else [])


def hard_count(code: int, seed: int = 0) -> int:
    """How many turns (questions and wrong declarations) the ``hard`` tier spends on code number
    ``code``, playing solo through the engine as in the solver benchmark."""
    game = new_game("alphacode", players=2, seed=seed, first=0)
    game.apply(0, {"type": "random_code"})
    game.apply(1, {"type": "code", "letters": legal_codes().code_json(code)})
    run_game(game, {0: HardSolver(seed=seed, solo=True), 1: Sparring(seed)})
    turns = [action for seat, action in game.record()["actions"] if seat == 0][1:]  # after its own code
    return len(turns) - 1  # the last one is the correct declaration


class AlphacodeDaily(SoloDaily):
    """The daily Alphabet Code for the web host (:mod:`codecrack.core.daily`)."""

    def of_day(self, secret: bytes, day: date) -> int:
        return code_of_day(secret, day)

    def practice(self) -> int:
        return secrets.randbelow(len(legal_codes()))

    def attempt(self, number: int, moves: list[dict[str, Any]]) -> Solo:
        return Solo(number, moves)

    def par(self, number: int) -> int:
        return hard_count(number)

    def result(self, attempt: Any, day: date | None, par: int) -> dict[str, Any]:
        score = attempt.score if attempt.solved else "X"
        title = (
            _("codecrack daily Alphabet Code {day}: {score} (hard: {hard})").format(
                day=day.isoformat(), score=score, hard=par
            )
            if day is not None
            else _("codecrack Alphabet Code practice: {score} (hard: {hard})").format(score=score, hard=par)
        )
        return {"code": attempt.view()["codes"][1], "hard": par, "share": "\n".join([title, *attempt.grid()])}


DAILY = AlphacodeDaily()

"""Alphabet Code: deduce a hidden code of five seven-segment letters by asking about the sheet.

Two players race to crack each other's code; with three or more, one seat creates the code and
the others crack it together. See ``docs/rules/alphacode.md`` for the rules as implemented and
the view and action formats.

>>> import codecrack
>>> game = codecrack.new_game("alphacode", players=2, seed=3, first=0)
>>> for seat in (0, 1):
...     _ = game.apply(seat, {"type": "random_code"})
>>> game.apply(0, {"type": "count", "row": "O", "column": "D"})[0]["type"]
'answer'
>>> sorted(game.to_move)
[1]
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pydantic import Field, ValidationInfo, field_validator

from ...core.errors import IllegalAction, OptionError
from ...core.frozen import frozen
from ...core.game import Action, Event, Game
from ...core.options import GameOptions, Preset, choice_option, seat_option
from ...core.shape import check_keys
from ...i18n import N_
from .codes import Code, check_code, code_json, code_mask, parse_code, random_code, settled_code
from .letters import GLYPHS, LETTER_SETS
from .sheet import (
    COLUMN_LABELS,
    MIN_COLUMNS,
    MIN_ROWS,
    ROW_LABELS,
    answer_at,
    check_size,
    question_cell,
    question_index,
    settled_by,
    shared_questions,
    sheet_of,
)
from .solver import solver_cost
from .view import alphacode_view

MISSES_ALLOWED = 1  # the second wrong declaration loses (2 players) or eliminates (3+ players)


class Found(NamedTuple):
    """What the answers about one code found: the questions asked (bit ``n``: question ``n`` of
    :func:`~.sheet.shared_questions`) and the squares they settle (bitmasks, filled and empty)."""

    asked: int
    filled: int
    empty: int


NOTHING_FOUND = Found(0, 0, 0)


class AlphacodeOptions(GameOptions):
    letters: int = choice_option(
        10,
        sorted(LETTER_SETS),
        title=N_("Letters"),
        description=N_("10: the letters a to j; 20: ten more letters, many more codes."),
    )
    columns: int = choice_option(
        MIN_COLUMNS,
        list(range(MIN_COLUMNS, len(COLUMN_LABELS) + 1, 2)),
        title=N_("Sheet columns"),
        description=N_("The sheet's width in lattice points (odd)."),
    )
    rows: int = choice_option(
        MIN_ROWS,
        list(range(MIN_ROWS, len(ROW_LABELS) + 1, 2)),
        title=N_("Sheet rows"),
        description=N_("The sheet's height in lattice points (odd)."),
    )
    real_words: bool = Field(
        False,
        title=N_("Real words"),
        description=N_("The code's letters, read column by column, must spell an English word."),
    )
    handicap: int = choice_option(
        0,
        [0, 1, 2, 3],
        ge=0,
        le=3,
        title=N_("Handicap"),
        description=N_("2 players: the first seat asks this many questions in a row at the start."),
    )
    creator: int | None = seat_option(  # None means the last seat
        N_("Code creator"),
        N_("3 or more players: the seat that makes the code; the last seat unless you pick one."),
        N_("the last seat"),
    )

    @field_validator("letters")
    @classmethod
    def _known_set(cls, value: int) -> int:
        if value not in LETTER_SETS:
            raise ValueError(N_("letters must be 10 or 20"))
        return value

    @field_validator("columns", "rows")
    @classmethod
    def _odd_size(cls, value: int, info: ValidationInfo) -> int:
        columns, rows = (value, 5) if info.field_name == "columns" else (13, value)
        check_size(columns, rows)
        return value

    def work_cost(self) -> tuple[float, float]:
        return solver_cost(self.letters, self.columns, self.rows)


ALPHACODE_PRESETS = (
    Preset("classic", N_("Classic"), N_("Ten letters on the standard sheet."), {}, default=True),
    Preset("advanced", N_("Advanced"), N_("Twenty letters: many more possible codes."), {"letters": 20}),
    Preset(
        "tournament",
        N_("Tournament"),
        N_("Twenty letters, and the code must spell a real word."),
        {"letters": 20, "real_words": True},
    ),
)


class AlphacodeGame(Game):
    """A duel (2 players, both make codes) or a circle of solvers around one code creator (3-6)."""

    name = "alphacode"
    min_players = 2
    max_players = 6
    Options = AlphacodeOptions
    presets = ALPHACODE_PRESETS
    options: AlphacodeOptions

    def __getstate__(self) -> dict[str, Any]:
        """The game's state without what its views share (a copy, a twin or a pickle, makes its own)."""
        return {**self.__dict__, "view_parts": {}}

    # -- setup ------------------------------------------------------------------------
    def _setup(self) -> None:
        # what its views share from step to step (view.py): made at the first view, never copied
        self.view_parts: dict[Any, Any] = {}
        options = self.options
        self.sheet = sheet_of(options.columns, options.rows)
        self.letters = LETTER_SETS[options.letters]
        self.duel = self.players == 2
        self.creator = self._creator_seat()
        self.solvers = [seat for seat in range(self.players) if seat != self.creator]
        self.history: list[Event] = []
        self.past_rounds: list[dict[str, Any]] = []
        self.outcome: dict[str, Any] | None = None
        self.round = 0
        self._start_round(
            self.first_seat() if self.duel or options.first is not None else self.chance("first", self.solvers)
        )

    def _creator_seat(self) -> int | None:
        """The code creator's seat (``None`` in a duel), checking the options that depend on it."""
        options = self.options
        if self.duel:
            if options.creator is not None:
                raise OptionError(N_("creator is for games of 3 or more players"))
            return None
        if options.handicap:
            raise OptionError(N_("handicap is a 2-player rule"))
        creator = self.players - 1 if options.creator is None else options.creator
        if not 0 <= creator < self.players:
            raise OptionError(N_("creator must be a seat from 0 to {last}"), last=self.players - 1)
        if options.first == creator:
            raise OptionError(N_("the code creator does not take turns: first must be a solver"))
        return creator

    def _start_round(self, first: int) -> None:
        self.round += 1
        self.first = first
        self.codes: list[Code | None] = [None] * self.players
        self.questions: list[dict[str, Any]] = []
        self.found: dict[int | None, Found] = {}  # by target, kept with the questions: a step reads no list
        self.declarations: list[dict[str, Any]] = []
        self.misses = [0] * self.players
        self.eliminated: list[int] = []
        self.pending: list[int] = []
        self.correct: list[int] = []
        self.handicap_left = self.options.handicap if self.duel else 0
        self.turn = first
        self.phase = "code"

    # -- who moves, and what they may do ------------------------------------------------
    def code_makers(self) -> list[int]:
        return list(range(self.players)) if self.creator is None else [self.creator]

    def target(self, seat: int | None) -> int | None:
        """Whose code ``seat`` is cracking."""
        if seat is None or seat == self.creator:
            return None
        return 1 - seat if self.duel else self.creator

    def _to_move(self) -> frozenset[int]:
        if self.phase == "code":
            return frozenset(s for s in self.code_makers() if self.codes[s] is None)
        if self.phase == "handicap":
            return frozenset({0})
        if self.phase in ("final", "cascade"):
            return frozenset(self.pending)
        return frozenset({self.turn})

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "code":
            return [{"type": "random_code"}]
        known = self.known_declaration(seat)
        declare = [] if known is None else [{"type": "declare", "letters": known}]
        if self.phase in ("final", "cascade"):
            return declare + [{"type": "pass"}]
        asked = self.found.get(self.target(seat), NOTHING_FOUND).asked
        questions = [q for number, (_, q) in enumerate(shared_questions(self.sheet)) if not asked >> number & 1]
        return questions + (declare if self.phase == "play" else [])

    def known_declaration(self, seat: int) -> list[dict[str, str]] | None:
        """The code ``seat`` is cracking, once the public answers settle every square; else ``None``."""
        _, filled, empty = self.found.get(self.target(seat), NOTHING_FOUND)
        return settled_code(filled, empty, self.sheet, self.letters)

    # -- actions ---------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        handlers = {
            "code": self._make_code,
            "random_code": self._make_code,
            "count": self._ask,
            "filled": self._ask,
            "declare": self._declare,
            "pass": self._pass,
        }
        if not isinstance(kind, str) or kind not in handlers:
            raise IllegalAction(
                N_("unknown action type {kind!r}; valid types: {kinds}"), kind=kind, kinds=", ".join(handlers)
            )
        played_round = self.round
        events = handlers[kind](seat, action)
        for event in events:
            if "round" not in event:  # an answer is frozen with its round
                event["round"] = played_round
        happened = [frozen(event) for event in events]
        self.history.extend(happened)  # shared by every later view
        return happened  # the frozen events themselves, as Coda's and The Coding's (docs/engine.md)

    def _make_code(self, seat: int, action: Action) -> list[Event]:
        if self.phase != "code":
            raise IllegalAction(N_("the codes are already made"))
        if action["type"] == "random_code":
            check_keys(action)
            code = random_code(
                self.rng,
                self.sheet,
                self.letters,
                self.options.real_words,
                pick=lambda outcomes: self.chance_index("code", outcomes),
            )
        else:
            check_keys(action, "letters")
            code = parse_code(action["letters"], self.sheet, self.letters)
            check_code(code, self.sheet, self.letters, self.options.real_words)
        self.codes[seat] = code
        events: list[Event] = [{"type": "code_made", "seat": seat}]
        if all(self.codes[s] is not None for s in self.code_makers()):
            self.phase = "handicap" if self.handicap_left else "play"
            events.append({"type": "start", "first": self.first, "handicap": self.handicap_left})
        return events

    def _ask(self, seat: int, action: Action) -> list[Event]:
        if self.phase not in ("handicap", "play"):
            raise IllegalAction(
                N_("no questions now: make your code first")
                if self.phase == "code"
                else N_("no questions now: only a declaration or a pass is allowed")
            )
        check_keys(action, "row", "column")
        sheet = self.sheet
        row, column = question_cell(sheet, action)
        kind = action["type"]
        # the sheet's own frozen question (its labels upper case), as the legal actions hold it
        number, question = question_index(sheet)[kind, sheet.row_labels[row], sheet.column_labels[column]]
        target = self.target(seat)
        found = self.found.get(target, NOTHING_FOUND)
        if found.asked >> number & 1:
            answered = next(e["answer"] for e in self.questions if e["target"] == target and e["question"] == question)
            raise _already_asked(kind, sheet.label(row, column), answered)
        result = answer_at(sheet, kind, row, column, code_mask(self._code_of(target)))
        self.found[target] = self._found_after(found, number, kind, row, column, result)
        entry = frozen(  # never changed: shared by the history and every later view
            {
                "type": "answer",
                "seat": seat,
                "target": target,
                "question": question,
                "answer": result,
                "round": self.round,
            }
        )
        self.questions.append(entry)
        if self.phase == "handicap":
            self.handicap_left -= 1
            if not self.handicap_left:  # exactly h questions, then seat 1 plays, whoever is first
                self.phase, self.turn = "play", 1
        else:
            self.turn = self._next_solver(seat)
        return [entry]

    def _declare(self, seat: int, action: Action) -> list[Event]:
        if self.phase not in ("play", "final", "cascade"):
            raise IllegalAction(
                N_("no declarations now: make your code first")
                if self.phase == "code"
                else N_("no declarations now: the opening handicap questions come first")
            )
        check_keys(action, "letters")
        guess = parse_code(action["letters"], self.sheet, self.letters)
        check_code(guess, self.sheet, self.letters, self.options.real_words)
        target = self.target(seat)
        correct = set(guess) == set(self._code_of(target))
        self.declarations.append(  # never changed: frozen, shared by every later view
            frozen({"seat": seat, "target": target, "letters": code_json(guess, self.sheet), "correct": correct})
        )
        event: Event = {"type": "declared", "seat": seat, "correct": correct}
        if self.duel:  # spoken aloud in a duel; handed to the creator alone with 3+ players
            event["letters"] = code_json(guess, self.sheet)
        return [event] + self._settle(seat, correct)

    def _pass(self, seat: int, action: Action) -> list[Event]:
        if self.phase not in ("final", "cascade"):
            raise IllegalAction(N_("you may pass only on a final declaration"))
        check_keys(action)
        return [{"type": "passed", "seat": seat}] + self._settle(seat, False)

    # -- consequences ----------------------------------------------------------------
    def _settle(self, seat: int, correct: bool) -> list[Event]:
        """What a declaration (or a pass, counted as wrong) leads to."""
        if self.duel:
            return self._after_duel_declaration(seat, correct)
        return self._after_submission(seat, correct)

    def _after_duel_declaration(self, seat: int, correct: bool) -> list[Event]:
        other = 1 - seat
        if self.phase == "final":
            if correct:
                return self._replay_after_draw()
            return self._finish([other], N_("the second player missed the final declaration"))
        if correct and seat != self.first:
            return self._finish([seat], N_("the second player declared correctly"))
        if correct:
            self.phase = "final"
            self.pending = [other]
            return [{"type": "final_chance", "seat": other}]
        return self._miss(seat) or self._pass_turn(seat)

    def _after_submission(self, seat: int, correct: bool) -> list[Event]:
        if self.phase == "cascade":
            self.pending.remove(seat)
            if correct:
                self.correct.append(seat)
            return [] if self.pending else self._finish(sorted(self.correct), N_("the submissions are in"))
        if correct:
            self.correct = [seat]
            self.pending = [s for s in self.solvers if s != seat and s not in self.eliminated]
            if not self.pending:
                return self._finish([seat], N_("a solver cracked the code"))
            self.phase = "cascade"
            return [{"type": "last_submissions", "seats": list(self.pending)}]
        return self._miss(seat) or self._pass_turn(seat)

    def _miss(self, seat: int) -> list[Event]:
        """Count a wrong declaration; return the events if it ends something, else ``[]``."""
        self.misses[seat] += 1
        if self.misses[seat] <= MISSES_ALLOWED:
            return []
        if self.duel:
            return self._finish([1 - seat], N_("two wrong declarations"))
        self.eliminated.append(seat)
        events: list[Event] = [{"type": "eliminated", "seat": seat}]
        if all(s in self.eliminated for s in self.solvers):
            return events + self._finish(self.code_makers(), N_("every solver was eliminated"))
        self.turn = self._next_solver(seat)
        return events

    def _pass_turn(self, seat: int) -> list[Event]:
        self.turn = self._next_solver(seat)
        return []

    def _next_solver(self, seat: int) -> int:
        if self.duel:  # no one is eliminated in a duel
            return 1 - seat
        order = self.solvers[self.solvers.index(seat) + 1 :] + self.solvers[: self.solvers.index(seat) + 1]
        return next(s for s in order if s not in self.eliminated)

    def _replay_after_draw(self) -> list[Event]:
        self.past_rounds.append(  # never changed: frozen, shared by every later view
            frozen(
                {
                    "round": self.round,
                    "outcome": "draw",
                    "first": self.first,
                    "codes": self.codes_json(),
                    "questions": self.questions,
                    "declarations": self.declarations,
                }
            )
        )
        events: list[Event] = [{"type": "draw", "round": self.round}]
        self._start_round(1 - self.first)
        events.append({"type": "new_round", "round": self.round, "first": self.first})
        return events

    def _finish(self, winners: list[int], reason: str) -> list[Event]:
        self.phase = "over"
        self.pending = []
        self.outcome = {"winners": winners, "scores": None, "rounds": self.round, "reason": reason}
        return [{"type": "game_over", "winners": winners, "reason": reason, "codes": self.codes_json()}]

    def _deciding_round(self) -> dict[str, Any]:
        """The summary of the last round: its declarations (``decisive``, history indices) and how
        many questions each seat asked in it (``questions``, its number of turns)."""
        asked = [0] * self.players
        declared = []
        for index, event in enumerate(self.history):
            if event["round"] == self.round and event["type"] == "answer":
                asked[event["seat"]] += 1
            elif event["round"] == self.round and event["type"] == "declared":
                declared.append(index)
        return {"decisive": declared, "questions": asked}

    # -- views -----------------------------------------------------------------------
    def codes_json(self) -> list[list[dict[str, str]] | None]:
        return [None if code is None else code_json(code, self.sheet) for code in self.codes]

    def _code_of(self, seat: int | None) -> Code:
        """The code ``seat`` made: a seat's target once every code is made, so never ``None``."""
        code = None if seat is None else self.codes[seat]
        assert code is not None, "questions and declarations come after the codes"
        return code

    def _found_after(self, found: Found, number: int, kind: str, row: int, column: int, result: int | bool) -> Found:
        """``found`` with question ``number`` asked and the squares its answer settles (:func:`~.sheet.settled_by`)."""
        filled, empty = settled_by(self.sheet, kind, row, column, result)
        return Found(found.asked | 1 << number, found.filled | filled, found.empty | empty)

    @staticmethod
    def facts() -> dict[str, Any]:
        """Public facts a how-to page draws: every letter's seven segments, and the letter sets."""
        return {"glyphs": GLYPHS, "letter_sets": {str(size): letters for size, letters in LETTER_SETS.items()}}

    def _view(self, seat: int | None) -> dict[str, Any]:
        return alphacode_view(self, seat)

    def _result(self) -> dict[str, Any] | None:
        return None if self.outcome is None else {**self.outcome, **self._deciding_round()}


def _already_asked(kind: str, where: str, answer: int | bool) -> IllegalAction:
    """A question asked twice, with the answer it had (a count, or yes/no for a square)."""
    if not isinstance(answer, bool):
        return IllegalAction(
            N_("{kind} {where} was already asked: the answer was {count}"), kind=kind, where=where, count=answer
        )
    return IllegalAction(
        N_("{kind} {where} was already asked: the answer was yes")
        if answer
        else N_("{kind} {where} was already asked: the answer was no"),
        kind=kind,
        where=where,
    )

"""The Coding: crack the other players' three-symbol codes from data cards and hack cards.

>>> import codecrack
>>> game = codecrack.new_game("coding", players=3, seed=1, first=0)
>>> game.view(0)["phase"], sorted(game.to_move)
('order', [0, 1, 2])
>>> digits = game.view(0)["own"]["digits"]
>>> _ = game.apply(0, {"type": "order", "x1": digits[1], "x2": digits[0]})
>>> sorted(game.to_move)
[1, 2]

The phases, their steps and the action formats are documented in ``docs/rules/coding.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from ...core.errors import IllegalAction
from ...core.game import Action, Event
from ...core.options import GameOptions, Preset, file_option
from ...core.shape import check_keys
from ...i18n import N_
from .cards import DATA_TYPES, DIGITS, LETTERS, load_deck
from .cracking import CrackingPhase
from .decoding import DecodingPhase
from .hacking import HackingPhase
from .oneshot import OneShotPhase
from .sheet import PlayerSheet
from .stalemate import StalemateSteps
from .table import CodingTable, Handler
from .view import coding_view

MODES = ("counter-revised", "counter", "speed", "one-shot")
ROUNDS = {"counter-revised": 4, "counter": 4, "speed": 4, "one-shot": 5}


class CodingOptions(GameOptions):
    mode: Literal["counter-revised", "counter", "speed", "one-shot"] = Field(
        "counter-revised",
        title=N_("Mode"),
        description=N_(
            "counter-revised and counter: take turns to decode; speed: slap The First One to answer; "
            "one-shot: everyone writes all the codes at the end, for points."
        ),
    )
    deck: str | None = file_option(
        title=N_("Hack deck file"),
        description=N_("A JSON file of hack cards; none uses the rulebook's 20 cards."),
    )
    answer_window: float = Field(
        10,
        ge=1,
        le=300,
        title=N_("Answer window (seconds)"),
        description=N_("Speed mode: how long the slapper has to answer."),
    )
    notes: bool = Field(
        True,
        title=N_("Notes shown"),
        description=N_("Off: the table hides the history, the spoken facts and the cracking sheet."),
    )


CODING_PRESETS = (
    Preset(
        "classic", N_("Classic"), N_("The revised counter rules: take turns to hack, then to decode."), {}, default=True
    ),
    Preset(
        "advanced",
        N_("Advanced"),
        N_("Speed mode: slap The First One and answer within the window."),
        {"mode": "speed"},
    ),
    Preset(
        "tournament",
        N_("Tournament"),
        N_("One-shot: five hacking rounds, then everyone writes every code, for points."),
        {"mode": "one-shot"},
    ),
)


class CodingGame(HackingPhase, DecodingPhase, CrackingPhase, StalemateSteps, OneShotPhase, CodingTable):
    """The Coding for 2-4 players in the four modes of the rulebook and its revision sheet."""

    name = "coding"
    min_players = 2
    max_players = 4
    Options = CodingOptions
    presets = CODING_PRESETS
    options: CodingOptions

    # -- setup -------------------------------------------------------------------------
    def _setup(self) -> None:
        mode = self.options.mode
        self.deck_cards = load_deck(self.options.deck)
        letters, digits = list(LETTERS), list(DIGITS)
        self.shuffle("letters", letters)
        self.shuffle("digits", digits)
        self.sheets = [
            PlayerSheet(seat, letters.pop(), sorted([digits.pop(), digits.pop()])) for seat in range(self.players)
        ]
        # The leftover code cards stay aside, shuffled together, for the stalemate deals.
        self.pile: list[tuple[str, Any]] = [("letter", x) for x in letters] + [("digit", d) for d in digits]
        self.shuffle("pile", self.pile)
        self.table_letters: list[str] = []
        self.table_digits: list[int] = []
        self.stacks = {kind: 1 if self.players == 2 else 2 for kind in DATA_TYPES}
        hack_ids = list(range(len(self.deck_cards)))
        self.shuffle("hack deck", hack_ids)
        self.row, self.hack_deck = hack_ids[:5], hack_ids[5:]
        self.holder: int | None = self.first_seat()  # The First One card
        self.rounds = ROUNDS[mode]
        self.round = 0
        self.received: set[int] = set()
        self.last_give: tuple[int, int] | None = None
        self.phase, self.step = "order", "order"
        self.turn: int | None = None
        self.history: list[Event] = []
        self.outcome: dict[str, Any] | None = None
        self._init_decoding()
        self._init_cracking()
        self._init_stalemate()
        self._init_answers()

    # -- between phases ---------------------------------------------------------------------
    def start_next_phase(self) -> list[Event]:
        """After the hacking rounds: the mode's cracking phase."""
        mode = self.options.mode
        self.received = set()
        if mode == "speed":
            return self._start_cracking()
        if mode == "one-shot":
            return self._start_answers()
        return self._start_decoding()

    def _resume_after_stalemate(self) -> None:
        """After a stalemate deal or reveals: back to slapping (speed) or to turns (counter modes)."""
        if self.phase == "cracking":
            self._reopen()
        else:
            self.step = "choose"

    # -- the contract -------------------------------------------------------------------
    def _to_move(self) -> frozenset[int]:
        if self.step == "order":
            return frozenset(s.seat for s in self.sheets if s.code is None)
        if self.step in ("open", "stalemate", "answers"):
            return frozenset(self._simultaneous_movers())
        return frozenset({self.mover})

    def _simultaneous_movers(self) -> set[int]:
        if self.step == "answers":
            return self._answer_movers()
        if self.step == "stalemate":
            return self._stalemate_movers()
        return set(self.remaining())  # speed's open step: anyone may slap at any moment

    def _awaited(self) -> frozenset[int]:
        """A seat that passed in speed mode may still slap, but the game no longer waits for it."""
        if self.step == "open":
            return frozenset(set(self.remaining()) - self.passed)
        return self._to_move()

    def _legal_actions(self, seat: int) -> list[Action]:
        return self._step_handlers()[1](seat)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        handlers = self._step_handlers()[0]
        kind = action["type"]
        if not isinstance(kind, str) or kind not in handlers:
            raise IllegalAction(
                N_("{kind!r} is not possible now (phase {phase}, step {step}); possible: {kinds}"),
                kind=kind,
                phase=self.phase,
                step=self.step,
                kinds=", ".join(sorted(handlers)),
            )
        return handlers[kind](seat, action)

    def _step_handlers(self) -> tuple[dict[str, Handler], Callable[[int], list[Action]]]:
        """(action type -> handler, legal-actions function) for the current step."""
        table: dict[str, tuple[dict[str, Handler], Callable[[int], list[Action]]]] = {
            "order": ({"order": self._act_order}, self._legal_order),
            "data": ({"take": self._act_take, "cannot": self._act_cannot}, self._data_actions),
            "give": ({"give": self._act_give}, self._give_actions),
            "choose": (self._choose_handlers(), self._legal_choose),
            "penalty": ({"reveal": self._act_penalty_reveal}, self._legal_penalty),
            "open": ({"slap": self._act_slap, "pass": self._act_pass}, self._legal_open),
            "answer": ({"decode": self._act_speed_decode, "timeout": self._act_timeout}, self._legal_answer),
            "stalemate": ({"reveal": self._act_stalemate_reveal}, self._legal_stalemate),
            "answers": ({"answer": self._act_answer}, self._legal_answers),
        }
        return table[self.step]

    # -- ordering the digits (every seat at once) ----------------------------------------
    def _legal_order(self, seat: int) -> list[Action]:
        a, b = self.sheets[seat].digits
        return [{"type": "order", "x1": a, "x2": b}, {"type": "order", "x1": b, "x2": a}]

    def _act_order(self, seat: int, action: Action) -> list[Event]:
        check_keys(action, "x1", "x2")
        sheet = self.sheets[seat]
        if sorted([action["x1"], action["x2"]], key=repr) != sorted(sheet.digits, key=repr):
            raise IllegalAction(
                N_("order your own two number cards {digits}: x1 and x2 must be those digits"), digits=sheet.digits
            )
        sheet.code = {"letter": sheet.letter, "x1": action["x1"], "x2": action["x2"]}
        events = self.log({"type": "ordered", "seat": seat})
        if all(s.code is not None for s in self.sheets):
            events += self._start_round()
        return events

    # -- views ----------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        return coding_view(self, seat)

    def _result(self) -> dict[str, Any] | None:
        return None if self.outcome is None else dict(self.outcome)

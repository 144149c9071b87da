"""The state every phase of The Coding shares, declared once, and the helpers every phase uses.

:class:`CodingTable` is the base of the phase mixins (:mod:`.hacking`, :mod:`.decoding`,
:mod:`.cracking`, :mod:`.stalemate`, :mod:`.oneshot`) and of
:class:`~codecrack.games.coding.rules.CodingGame`, which builds the state in ``_setup``. A
phase reads and changes only what is declared here; the steps one phase hands over to another
are declared here too (abstract), so that each mixin is checked on its own.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.decisive import causes
from ...core.frozen import frozen
from ...core.game import Action, Event, Game
from ...i18n import N_
from .cards import POSITIONS, Code, HackCard, code_text
from .sheet import PlayerSheet

if TYPE_CHECKING:
    from .rules import CodingOptions

Handler = Callable[[int, Action], list[Event]]  # a step's handler of one action type: (seat, action) -> events
DECIDING_MOVES = {"decode", "answered", "timeout"}  # the move before each "out" and the "over"


class CodingTable(Game):
    """The Coding's shared state and helpers (see the module doc)."""

    options: CodingOptions
    # the cards
    deck_cards: list[HackCard]  # the hack deck, by card id
    sheets: list[PlayerSheet]  # one per seat
    pile: list[tuple[str, Any]]  # leftover code cards, ("letter", x) or ("digit", d), for stalemate deals
    table_letters: list[str]  # leftover code cards dealt face up
    table_digits: list[int]
    stacks: dict[str, int]  # data cards left, by type
    row: list[int]  # the face-up hack cards
    hack_deck: list[int]  # the face-down hack cards
    # where the game stands
    holder: int | None  # The First One card's holder (None once it goes to the middle)
    rounds: int
    round: int
    received: set[int]  # seats that received a hack card this round
    last_give: tuple[int, int] | None  # (giver, receiver) of the last hack card
    phase: str
    step: str
    turn: int | None
    history: list[Event]
    outcome: dict[str, Any] | None
    # decoding (counter modes)
    may_stop: bool  # right after a correct decode: the decoder may stop
    passes_in_row: int  # turns in a row that were only "cannot take"
    # cracking (speed mode)
    passed: set[int]  # seats passing since the last change
    slapper: int | None
    # stalemates
    deals: int  # stalemate deals of leftover code cards so far
    pending_reveals: dict[int, str]  # chosen number cards, not yet shown
    # one-shot
    answers: dict[int, dict[int, Code]]  # seat -> target -> written code

    # -- helpers every phase uses --------------------------------------------------------
    @property
    def hack_limit(self) -> int | None:
        """At most 5 hack cards per player, except in speed mode."""
        return None if self.options.mode == "speed" else 5

    @property
    def mover(self) -> int:
        """The seat whose turn it is, in the steps that have one (not ordering, slapping, stalemate reveals, answers)."""
        assert self.turn is not None, "a step with a turn"
        return self.turn

    def remaining(self) -> list[int]:
        return [s.seat for s in self.sheets if not s.out]

    def left_of(self, seat: int) -> int:
        """The next seat still in the game, going left (to the next seat number)."""
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if not self.sheets[nxt].out:
                return nxt
        return seat

    def log(self, *events: Event) -> list[Event]:
        """Record public events, frozen: every later view shares them (docs/engine.md, "Views share")."""
        kept = [frozen(event) for event in events]
        self.history.extend(kept)
        return kept

    def finish(self, winners: list[int], reason: str, scores: list[int] | None = None) -> list[Event]:
        for sheet in self.sheets:
            sheet.reveal_all()
        self.phase, self.step, self.turn = "over", "over", None
        codes = [code_text(s.fixed_code) for s in self.sheets]
        outcome: dict[str, Any] = {"winners": sorted(winners), "scores": scores, "reason": reason, "codes": codes}
        self.outcome = outcome
        outcome.update(self._result_extras())
        events = self.log(
            {"type": "over", "winners": sorted(winners), "reason": reason, "codes": list(codes), "scores": scores}
        )
        outcome["decisive"] = causes(self.history, {"out", "over"}, DECIDING_MOVES)
        return events

    def eliminate(self, seat: int, why: str) -> list[Event]:
        """Put ``seat`` out with every card face up; the last player standing wins."""
        sheet = self.sheets[seat]
        sheet.out = True
        sheet.reveal_all()
        events = self.log({"type": "out", "seat": seat, "why": why, "code": code_text(sheet.fixed_code)})
        left = self.remaining()
        if len(left) == 1:
            events += self.finish(left, N_("last player remaining"))
        return events

    # -- steps one phase hands over to another ----------------------------------------------
    @abstractmethod
    def start_next_phase(self) -> list[Event]:
        """After the hacking rounds: the mode's cracking phase (rules)."""

    @abstractmethod
    def _resume_after_stalemate(self) -> None:
        """Back to slapping or to turns after a stalemate (rules)."""

    @abstractmethod
    def _result_extras(self) -> dict[str, Any]:
        """What the mode adds to the result (one-shot)."""

    @abstractmethod
    def takable(self, seat: int) -> list[str]:
        """Data card types ``seat`` may take (hacking)."""

    @abstractmethod
    def data_left(self) -> bool: ...

    @abstractmethod
    def can_give(self, seat: int) -> bool: ...

    @abstractmethod
    def _data_actions(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def _give_actions(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def _act_take(self, seat: int, action: Action) -> list[Event]: ...

    @abstractmethod
    def _act_cannot(self, seat: int, action: Action) -> list[Event]: ...

    @abstractmethod
    def _act_give(self, seat: int, action: Action) -> list[Event]: ...

    @abstractmethod
    def _end_decoding_turn(self, seat: int) -> list[Event]:
        """The counter modes' turn passes on (decoding)."""

    @abstractmethod
    def decode_actions(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def judge_decode(self, seat: int, action: Action) -> tuple[int, bool, list[Event]]: ...

    @abstractmethod
    def check_reveal(self, seat: int, action: Action, positions: tuple[str, ...] = POSITIONS) -> str: ...

    @abstractmethod
    def reveal_event(self, seat: int, position: str) -> Event: ...

    @abstractmethod
    def stalemate_possible(self) -> bool:
        """Whether a stalemate would still show something (stalemate)."""

    @abstractmethod
    def _stalemate(self) -> list[Event]: ...

"""Speed mode after the hacking rounds: real-time cracking.

Every remaining seat may ``slap`` at any moment; the first slap to arrive wins the right to
answer. The slapper then names a target and a full code (``decode``), or the host sends
``timeout`` when the answer window runs out (the rulebook's hesitation foul). A ``pass`` only
says "I am waiting": the seat stays in ``to_move`` and may still slap (which cancels its pass), but the game no longer
awaits it. When every remaining seat is passing at once, the stalemate steps
(:mod:`.stalemate`) bring new information, and everyone is awaited again.
"""

from __future__ import annotations

from ...core.errors import IllegalAction
from ...core.game import Action, Event
from ...core.shape import check_keys
from ...i18n import N_
from .table import CodingTable


class CrackingPhase(CodingTable):
    """Mixin for :class:`~codecrack.games.coding.rules.CodingGame`: speed mode's cracking."""

    def _init_cracking(self) -> None:
        self.passed: set[int] = set()  # seats passing since the last change
        self.slapper: int | None = None

    def _start_cracking(self) -> list[Event]:
        self.phase = "cracking"
        self.holder = None  # The First One card goes to the middle of the table
        self._reopen()
        return self.log({"type": "phase", "phase": "cracking"})

    def _reopen(self) -> None:
        self.step, self.turn, self.slapper = "open", None, None
        self.passed = set()

    # -- slap or pass -------------------------------------------------------------------------
    def _legal_open(self, seat: int) -> list[Action]:
        may_pass = seat not in self.passed and self.stalemate_possible()
        return [{"type": "slap"}] + ([{"type": "pass"}] if may_pass else [])

    def _act_slap(self, seat: int, action: Action) -> list[Event]:
        check_keys(action)
        self.step, self.turn, self.slapper = "answer", seat, seat
        self.passed.discard(seat)  # a slap cancels the slapper's pass
        return self.log({"type": "slap", "seat": seat})

    def _act_pass(self, seat: int, action: Action) -> list[Event]:
        check_keys(action)
        if seat in self.passed:
            raise IllegalAction(N_("you are already passing; slap whenever you are ready"))
        if not self.stalemate_possible():
            raise IllegalAction(N_("every card that the stalemate rules can show is already face up: slap and answer"))
        self.passed.add(seat)
        events = self.log({"type": "pass", "seat": seat})
        if self.passed >= set(self.remaining()):
            events += self._stalemate()
        return events

    # -- the slapper answers ------------------------------------------------------------------
    def _legal_answer(self, seat: int) -> list[Action]:
        return self.decode_actions(seat) + [{"type": "timeout"}]

    def _act_speed_decode(self, seat: int, action: Action) -> list[Event]:
        _, correct, events = self.judge_decode(seat, action)
        if correct:
            return events + self.finish([seat], N_("the slapper cracked a code"))  # the decisive decode says whose
        return events + self._slapper_out(seat, N_("wrong answer"))

    def _act_timeout(self, seat: int, action: Action) -> list[Event]:
        check_keys(action)
        events = self.log({"type": "timeout", "seat": seat})
        return events + self._slapper_out(seat, N_("hesitation: no answer within the answer window"))

    def _slapper_out(self, seat: int, why: str) -> list[Event]:
        events = self.eliminate(seat, why)
        if self.outcome is None:
            self._reopen()
        return events

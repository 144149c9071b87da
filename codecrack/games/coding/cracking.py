"""Speed mode after the hacking rounds: real-time cracking.

Every remaining seat may ``slap`` at once; the first slap to arrive wins the right to answer.
The slapper then names a target and a full code (``decode``), or the host sends ``timeout`` when
the answer window runs out (the rulebook's hesitation foul). A seat that ``pass``es leaves
``to_move`` until something changes; when every remaining seat has passed, the stalemate rules
bring new information: leftover code cards dealt face up, then number cards revealed.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...core.game import Action, Event
from .cards import NUMBER_POSITIONS
from .checks import check_fields


class CrackingPhase:
    """Mixin for :class:`~codecrack.games.coding.rules.CodingGame`: speed mode's cracking."""

    def _init_cracking(self) -> None:
        self.passed: set[int] = set()
        self.slapper: int | None = None
        self.deals = 0                          # stalemate deals of leftover code cards so far
        self.pending_reveals: dict[int, str] = {}   # stalemate: chosen number cards, not yet shown

    def _start_cracking(self) -> list[Event]:
        self.phase = "cracking"
        self.holder = None          # The First One card goes to the middle of the table
        self._reopen()
        return self.log({"type": "phase", "phase": "cracking"})

    def _reopen(self) -> None:
        self.step, self.turn, self.slapper = "open", None, None
        self.passed = set()

    def _cracking_view(self, seat: int | None) -> dict[str, Any]:
        return {
            "slapper": self.slapper,
            "passed": sorted(self.passed),
            "stalemate_deals": self.deals,
            "reveal_chosen": sorted(self.pending_reveals),
            "own_reveal": self.pending_reveals.get(seat) if seat is not None else None,
        }

    def _cracking_movers(self) -> set[int]:
        if self.step == "open":
            return set(self.remaining()) - self.passed
        return {seat for seat in self.remaining()
                if self.sheets[seat].hidden(NUMBER_POSITIONS) and seat not in self.pending_reveals}

    # -- slap or pass -------------------------------------------------------------------------
    def can_deal(self) -> bool:
        """Leftover code cards are dealt at the first stalemate, and again with 2-3 players."""
        return bool(self.pile) and (self.deals == 0 or self.players <= 3)

    def stalemate_possible(self) -> bool:
        return self.can_deal() or any(self.sheets[s].hidden(NUMBER_POSITIONS) for s in self.remaining())

    def _legal_open(self, seat: int) -> list[Action]:
        return [{"type": "slap"}] + ([{"type": "pass"}] if self.stalemate_possible() else [])

    def _act_slap(self, seat: int, action: Action) -> list[Event]:
        check_fields(action)
        self.step, self.turn, self.slapper = "answer", seat, seat
        return self.log({"type": "slap", "seat": seat})

    def _act_pass(self, seat: int, action: Action) -> list[Event]:
        check_fields(action)
        if not self.stalemate_possible():
            raise IllegalAction("every card that the stalemate rules can show is already face up: slap and answer")
        self.passed.add(seat)
        events = self.log({"type": "pass", "seat": seat})
        if self.passed >= set(self.remaining()):
            events += self._stalemate()
        return events

    def _stalemate(self) -> list[Event]:
        if self.can_deal():
            count = min(len(self.pile), len(self.remaining()))
            cards, self.pile = self.pile[:count], self.pile[count:]
            letters = [value for kind, value in cards if kind == "letter"]
            digits = [value for kind, value in cards if kind == "digit"]
            self.table_letters += letters
            self.table_digits += digits
            self.deals += 1
            self._reopen()
            return self.log({"type": "dealt", "letters": letters, "digits": digits})
        self.step, self.pending_reveals = "stalemate", {}
        return self.log({"type": "stalemate_reveal", "seats": sorted(self._cracking_movers())})

    # -- the slapper answers ------------------------------------------------------------------
    def _legal_answer(self, seat: int) -> list[Action]:
        return self.decode_actions(seat) + [{"type": "timeout"}]

    def _act_speed_decode(self, seat: int, action: Action) -> list[Event]:
        target, correct, events = self.judge_decode(seat, action)
        if correct:
            return events + self.finish([seat], f"seat {seat} cracked seat {target}'s code")
        return events + self._slapper_out(seat, "wrong answer")

    def _act_timeout(self, seat: int, action: Action) -> list[Event]:
        check_fields(action)
        events = self.log({"type": "timeout", "seat": seat})
        return events + self._slapper_out(seat, "hesitation: no answer within the answer window")

    def _slapper_out(self, seat: int, why: str) -> list[Event]:
        events = self.eliminate(seat, why)
        if self.outcome is None:
            self._reopen()
        return events

    # -- stalemate: every remaining player reveals one number card, all at once -----------------
    def _legal_stalemate(self, seat: int) -> list[Action]:
        return [{"type": "reveal", "card": p} for p in self.sheets[seat].hidden(NUMBER_POSITIONS)]

    def _act_stalemate_reveal(self, seat: int, action: Action) -> list[Event]:
        position = self.check_reveal(seat, action, NUMBER_POSITIONS)
        self.pending_reveals[seat] = position
        events = self.log({"type": "chose_reveal", "seat": seat})
        if self._cracking_movers():
            return events
        chosen, self.pending_reveals = self.pending_reveals, {}
        events += self.log(*(self.reveal_event(s, p) for s, p in sorted(chosen.items())))
        self._reopen()
        return events

"""The stalemate steps, shared by speed mode and the counter modes.

When every remaining player is waiting (speed: all passing at once; counter: all passing in a
row), the rulebook brings new information onto the table: the leftover code cards, one per
remaining player, dealt face up (again and again with 2-3 players, while cards remain); after
that every remaining player reveals one number card of their choice. The choices stay secret
until all are in, then are shown together. Play then resumes in the mode's own way.
"""

from __future__ import annotations

from ...core.game import Action, Event
from .cards import NUMBER_POSITIONS
from .table import CodingTable


class StalemateSteps(CodingTable):
    """Mixin for :class:`~codecrack.games.coding.rules.CodingGame`: deals and number-card reveals."""

    def _init_stalemate(self) -> None:
        self.deals = 0  # stalemate deals of leftover code cards so far
        self.pending_reveals: dict[int, str] = {}  # chosen number cards, not yet shown

    def can_deal(self) -> bool:
        """Leftover code cards are dealt at the first stalemate, and again with 2-3 players."""
        return bool(self.pile) and (self.deals == 0 or self.players <= 3)

    def stalemate_possible(self) -> bool:
        """Whether a stalemate would still show something: a deal, or a face-down number card."""
        return self.can_deal() or any(self.sheets[s].hidden(NUMBER_POSITIONS) for s in self.remaining())

    def _stalemate(self) -> list[Event]:
        """Every remaining player is waiting: deal leftover code cards, or ask for reveals."""
        if self.can_deal():
            count = min(len(self.pile), len(self.remaining()))
            cards, self.pile = self.pile[:count], self.pile[count:]
            letters = [value for kind, value in cards if kind == "letter"]
            digits = [value for kind, value in cards if kind == "digit"]
            self.table_letters += letters
            self.table_digits += digits
            self.deals += 1
            self._resume_after_stalemate()
            return self.log({"type": "dealt", "letters": letters, "digits": digits})
        self.step, self.pending_reveals = "stalemate", {}
        return self.log({"type": "stalemate_reveal", "seats": sorted(self._stalemate_movers())})

    # -- every remaining player reveals one number card, all at once --------------------------
    def _stalemate_movers(self) -> set[int]:
        return {
            seat
            for seat in self.remaining()
            if self.sheets[seat].hidden(NUMBER_POSITIONS) and seat not in self.pending_reveals
        }

    def _legal_stalemate(self, seat: int) -> list[Action]:
        return [{"type": "reveal", "card": p} for p in self.sheets[seat].hidden(NUMBER_POSITIONS)]

    def _act_stalemate_reveal(self, seat: int, action: Action) -> list[Event]:
        position = self.check_reveal(seat, action, NUMBER_POSITIONS)
        self.pending_reveals[seat] = position
        events = self.log({"type": "chose_reveal", "seat": seat})
        if self._stalemate_movers():
            return events
        chosen, self.pending_reveals = self.pending_reveals, {}
        events += self.log(*(self.reveal_event(s, p) for s, p in sorted(chosen.items())))
        self._resume_after_stalemate()
        return events

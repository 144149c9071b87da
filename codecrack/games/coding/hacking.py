"""Hacking: taking data cards, passing hack cards, and the hacking rounds of every mode.

A hacking turn is a data step (take a card that truly rules you out, or declare "cannot take")
followed by a give step (pass one face-up hack card). In the hacking rounds the receiver takes
the next turn; the round ends when The First One holder receives.
"""

from __future__ import annotations

from ...core.errors import IllegalAction, SeatNumber
from ...core.game import Action, Event
from ...core.shape import check_keys
from ...i18n import N_
from .cards import DATA_TYPES, is_green, rules_out
from .checks import check_seat_number
from .table import CodingTable


class HackingPhase(CodingTable):
    """Mixin for :class:`~codecrack.games.coding.rules.CodingGame`: data and hack cards."""

    # -- data cards ------------------------------------------------------------------------
    def takable(self, seat: int) -> list[str]:
        """Data card types ``seat`` may take: left in a stack, not held, and truly ruling them out."""
        sheet = self.sheets[seat]
        return [
            kind
            for kind in DATA_TYPES
            if self.stacks[kind] and kind not in sheet.data and rules_out(kind, sheet.fixed_code)
        ]

    def data_left(self) -> bool:
        return any(self.stacks.values())

    def _data_actions(self, seat: int) -> list[Action]:
        takes = [{"type": "take", "card": kind} for kind in self.takable(seat)]
        return takes or [{"type": "cannot"}]

    def _check_take(self, seat: int, action: Action) -> str:
        check_keys(action, "card")
        kind: str = action["card"]
        sheet = self.sheets[seat]
        if kind not in DATA_TYPES:
            raise IllegalAction(
                N_("no data card {kind!r}; the types are {kinds}"), kind=kind, kinds=", ".join(DATA_TYPES)
            )
        if not self.stacks[kind]:
            raise IllegalAction(N_("the {kind} stack is empty"), kind=kind)
        if kind in sheet.data:
            raise IllegalAction(N_("you already hold a {kind} data card"), kind=kind)
        if not rules_out(kind, sheet.fixed_code):
            raise IllegalAction(N_("{kind} does not rule out your own code; take only a card that does"), kind=kind)
        return kind

    def _check_cannot(self, seat: int, action: Action) -> list[str]:
        check_keys(action)
        if self.takable(seat):
            raise IllegalAction(
                N_("you can take {kinds}, so you may not declare 'cannot take'"), kinds=", ".join(self.takable(seat))
            )
        return [kind for kind in DATA_TYPES if self.stacks[kind] and kind not in self.sheets[seat].data]

    def _act_take(self, seat: int, action: Action) -> list[Event]:
        kind = self._check_take(seat, action)
        self.stacks[kind] -= 1
        self.sheets[seat].data.append(kind)
        return self.log({"type": "took", "seat": seat, "card": kind}) + self._after_data(seat)

    def _act_cannot(self, seat: int, action: Action) -> list[Event]:
        offered = self._check_cannot(seat, action)
        if offered:  # with no data card left, "cannot take" says nothing about the code
            self.sheets[seat].cannot.append(offered)
        return self.log({"type": "cannot", "seat": seat, "offered": offered}) + self._after_data(seat)

    def _after_data(self, seat: int) -> list[Event]:
        if self.can_give(seat):
            self.step = "give"
            return []
        return self._end_turn_without_give(seat)

    # -- hack cards --------------------------------------------------------------------------
    def give_problem(self, seat: int, to: int) -> str | None:
        """Why ``seat`` may not pass a hack card to ``to`` now (a template of ``{seat}``, the
        receiver, and ``{count}``, the hack limit), or ``None`` if they may."""
        target = self.sheets[to]
        if to == seat:
            return N_("you may not pass a hack card to yourself")
        if target.out:
            return N_("seat {seat} is out of the game")
        in_rounds = self.phase == "hacking"
        if in_rounds and to in self.received:
            return N_("seat {seat} has already received a hack card this round")
        if self.players > 2 and self.last_give == (to, seat):
            return N_("seat {seat} just passed a hack card to you; passing back is allowed only with 2 players")
        if (
            in_rounds
            and to == self.holder
            and any(s not in self.received for s in self.remaining() if s != self.holder)
        ):
            return N_("seat {seat} holds The First One card and must be the last to receive this round")
        if self.hack_limit is not None and len(target.hacks) >= self.hack_limit:
            return N_("seat {seat} already holds {count} hack cards")
        return None

    def receivers(self, seat: int) -> list[int]:
        return [to for to in range(self.players) if self.give_problem(seat, to) is None]

    def can_give(self, seat: int) -> bool:
        return bool(self.row) and bool(self.receivers(seat))

    def _give_actions(self, seat: int) -> list[Action]:
        receivers = self.receivers(seat) if self.row else []
        return [{"type": "give", "card": card, "to": to} for card in self.row for to in receivers]

    def _check_give(self, seat: int, action: Action) -> tuple[int, int]:
        check_keys(action, "card", "to")
        card, to = action["card"], action["to"]
        if not isinstance(card, int) or isinstance(card, bool) or card not in self.row:
            raise IllegalAction(N_("hack card {card!r} is not in the face-up row {row}"), card=card, row=self.row)
        check_seat_number(to, self.players, "to")
        problem = self.give_problem(seat, to)
        if problem:
            raise IllegalAction(problem, seat=SeatNumber(to), count=self.hack_limit)
        return card, to

    def _act_give(self, seat: int, action: Action) -> list[Event]:
        card_id, to = self._check_give(seat, action)
        card = self.deck_cards[card_id]
        green = is_green(card, self.sheets[to].fixed_code)
        self.row.remove(card_id)
        if self.hack_deck:
            self.row.append(self.hack_deck.pop())
        self.sheets[to].place(card, green)
        self.last_give = (seat, to)
        events = self.log({"type": "hacked", "seat": seat, "to": to, "card": dict(card), "green": green})
        return events + self._after_give(seat, to)

    def _after_give(self, seat: int, to: int) -> list[Event]:
        if self.phase == "hacking":
            return self._round_after_give(to)
        return self._end_decoding_turn(seat)

    def _end_turn_without_give(self, seat: int) -> list[Event]:
        if self.phase == "hacking":  # no hack card left to pass: the hacking rounds are over
            return self.log({"type": "no_hack_cards", "seat": seat}) + self.start_next_phase()
        return self._end_decoding_turn(seat)

    # -- the hacking rounds ---------------------------------------------------------------------
    def _start_round(self) -> list[Event]:
        self.phase = "hacking"
        self.round += 1
        self.received = set()
        self.turn = self.holder
        events = self.log({"type": "round", "round": self.round, "first_one": self.holder})
        return events + self._begin_round_turn()

    def _begin_round_turn(self) -> list[Event]:
        """The data step, skipped when no data card is left anywhere."""
        if self.data_left():
            self.step = "data"
            return []
        return self._after_data(self.mover)

    def _round_after_give(self, to: int) -> list[Event]:
        self.received.add(to)
        if to == self.holder:
            self.holder = self.left_of(self.holder)
            if self.round == self.rounds:
                return self.start_next_phase()
            return self._start_round()
        self.turn = to
        return self._begin_round_turn()

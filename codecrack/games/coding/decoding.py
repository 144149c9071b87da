"""Counter and counter-revised modes after the hacking rounds: each turn, HACK or DECODE.

From The First One holder and going left, a player either hacks (data step, then a hack card,
exactly as in the rounds, but to any other remaining player with fewer than 5 hack cards) or
decodes a target. A correct decode puts the target out and the decoder may go on or stop; a
wrong one costs the decoder one of their own code cards, face up, and the third puts them out.

Decoding is never forced: a player with nothing to hack may still HACK, which is then only
"cannot take", a pass. When every remaining player passes in a row, the stalemate steps
(:mod:`.stalemate`) show new cards. Only when they have nothing left to show is HACK no longer
offered, so the game always ends.
"""

from __future__ import annotations

from ...core.errors import IllegalAction, SeatNumber
from ...core.game import Action, Event
from ...core.shape import check_keys
from ...i18n import N_
from .cards import POSITIONS, Code, all_code_texts, code_text, parse_code
from .checks import check_seat_number
from .table import CodingTable, Handler

WRONG_DECODES_ALLOWED = 2


class DecodingPhase(CodingTable):
    """Mixin for :class:`~codecrack.games.coding.rules.CodingGame`: the counter modes' phase 2."""

    def _init_decoding(self) -> None:
        self.may_stop = False  # True right after a correct decode: the decoder may stop
        self.passes_in_row = 0  # turns in a row that were only "cannot take"

    def _start_decoding(self) -> list[Event]:
        self.phase = "decoding"
        self.turn = self.holder
        self.may_stop = False
        self.step = "choose"
        return self.log({"type": "phase", "phase": "decoding", "first": self.turn})

    # -- choosing: HACK (its data step, or a direct give when no data card is left) or DECODE --
    def hack_possible(self, seat: int) -> bool:
        """Whether a HACK would do something: take a data card or pass a hack card."""
        return bool(self.takable(seat)) or self.can_give(seat)

    def hack_openings(self, seat: int) -> list[Action]:
        if not self.hack_possible(seat):
            return [{"type": "cannot"}] if self.stalemate_possible() else []
        if self.data_left():
            return self._data_actions(seat)
        return self._give_actions(seat)

    def decode_targets(self, seat: int) -> list[int]:
        """The seats that ``seat`` may decode: it may name any code for each of them."""
        return [target for target in self.remaining() if target != seat]

    def decode_actions(self, seat: int) -> list[Action]:
        codes = all_code_texts()
        return [
            {"type": "decode", "target": target, "code": code} for target in self.decode_targets(seat) for code in codes
        ]

    def stop_actions(self) -> list[Action]:
        return [{"type": "stop"}] if self.may_stop else []

    def _legal_choose(self, seat: int) -> list[Action]:
        return self.hack_openings(seat) + self.decode_actions(seat) + self.stop_actions()

    def _choose_handlers(self) -> dict[str, Handler]:
        return {
            "take": self._choose_hack,
            "cannot": self._choose_hack,
            "give": self._choose_hack,
            "decode": self._act_decode,
            "stop": self._act_stop,
        }

    def _choose_hack(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if not self.hack_possible(seat) and not self.stalemate_possible():
            raise IllegalAction(
                N_("nothing is left to hack and the stalemate rules have nothing more to show, so you must decode")
            )
        if kind == "give" and self.data_left():
            raise IllegalAction(N_("data cards remain: take one (or declare 'cannot') before passing a hack card"))
        if kind != "give" and not self.data_left() and self.can_give(seat):
            raise IllegalAction(N_("no data card is left in the game: pass a hack card directly"))
        passing = kind == "cannot" and not self.can_give(seat)
        events = {"take": self._act_take, "cannot": self._act_cannot, "give": self._act_give}[kind](seat, action)
        self.may_stop = False  # set only once the hack is known to be legal
        return events + (self._count_pass() if passing else self._something_changed())

    def _count_pass(self) -> list[Event]:
        """One more HACK that was only "cannot take"; once every remaining player has passed
        in a row, the stalemate steps run."""
        self.passes_in_row += 1
        if self.passes_in_row < len(self.remaining()):
            return []
        self.passes_in_row = 0
        return self._stalemate()

    def _something_changed(self) -> list[Event]:
        self.passes_in_row = 0
        return []

    def _end_decoding_turn(self, seat: int) -> list[Event]:
        if self.outcome is not None:
            return []
        self.turn = self.left_of(seat)
        self.step = "choose"
        self.may_stop = False
        return []

    # -- decoding ---------------------------------------------------------------------------
    def check_decode(self, seat: int, action: Action) -> tuple[int, Code]:
        check_keys(action, "target", "code")
        target = check_seat_number(action["target"], self.players, "target")
        if target == seat:
            raise IllegalAction(N_("you may not decode your own code"))
        if self.sheets[target].out:
            raise IllegalAction(N_("seat {seat} is already out of the game"), seat=SeatNumber(target))
        return target, parse_code(action["code"])

    def judge_decode(self, seat: int, action: Action) -> tuple[int, bool, list[Event]]:
        """Check a decode, announce whether it is right, and note a wrong guess on the sheet."""
        target, code = self.check_decode(seat, action)
        correct = code == self.sheets[target].code
        if not correct:
            self.sheets[seat].wrong.append({"target": target, "code": code_text(code)})
        events = self.log(
            {"type": "decode", "seat": seat, "target": target, "code": code_text(code), "correct": correct}
        )
        return target, correct, events

    def _act_decode(self, seat: int, action: Action) -> list[Event]:
        target, correct, events = self.judge_decode(seat, action)
        self._something_changed()
        if correct:
            events += self.eliminate(target, N_("decoded"))  # the decode event just before says by whom
            if self.outcome is None:
                self.may_stop = True
            return events
        self.may_stop = False
        if len(self.sheets[seat].wrong) > WRONG_DECODES_ALLOWED:
            return events + self.eliminate(seat, N_("third wrong decode")) + self._end_decoding_turn(seat)
        if not self.sheets[seat].hidden():  # nothing left to pay the penalty with
            return (
                events
                + self.eliminate(seat, N_("wrong decode with no face-down card left"))
                + self._end_decoding_turn(seat)
            )
        self.step = "penalty"
        return events

    def _act_stop(self, seat: int, action: Action) -> list[Event]:
        check_keys(action)
        if not self.may_stop:
            raise IllegalAction(N_("you may stop only right after a correct decode"))
        return self.log({"type": "stop", "seat": seat}) + self._end_decoding_turn(seat)

    # -- the wrong-decode penalty: reveal one of your own hidden code cards ------------------
    def _legal_penalty(self, seat: int) -> list[Action]:
        return [{"type": "reveal", "card": p} for p in self.sheets[seat].hidden()]

    def check_reveal(self, seat: int, action: Action, positions: tuple[str, ...] = POSITIONS) -> str:
        check_keys(action, "card")
        position: str = action["card"]
        if position not in positions:
            raise IllegalAction(
                N_("reveal one of {positions}, not {position!r}"), positions=", ".join(positions), position=position
            )
        if position in self.sheets[seat].revealed:
            raise IllegalAction(N_("your {position} card is already face up"), position=position)
        return position

    def reveal_event(self, seat: int, position: str) -> Event:
        sheet = self.sheets[seat]
        sheet.revealed.append(position)
        return {"type": "revealed", "seat": seat, "card": position, "value": sheet.fixed_code[position]}

    def _act_penalty_reveal(self, seat: int, action: Action) -> list[Event]:
        position = self.check_reveal(seat, action)
        return self.log(self.reveal_event(seat, position)) + self._end_decoding_turn(seat)

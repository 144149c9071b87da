"""The Coding's observation encoder: one seat's view as a fixed-size ``float32`` vector.

Symbols share one 16-wide axis: letters A-F at 0-5, digits 0-9 at 6-15. Hack cards enter as
counts per position and symbol of the green and red cards naming that symbol, which is what the
cards tell; wrong decodes enter per guessed symbol.

>>> import codecrack
>>> game = codecrack.new_game("coding", players=3, seed=1)
>>> encoder = CodingEncoder(3, game.options)
>>> encoder.encode(game.view(2)).shape == (encoder.layout.size,)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.features import Layout, one_hot, seats
from .cards import DATA_TYPES, DIGITS, LETTERS, POSITIONS, parse_code

PHASES = ("order", "hacking", "decoding", "cracking", "answering", "over")
STEPS = ("order", "data", "give", "choose", "penalty", "open", "answer", "stalemate", "answers", "over")
SYMBOLS = len(LETTERS) + len(DIGITS)
ROW = 5
MANY = 1000      # the bound of counting entries: far above any count a game reaches


SYMBOL_INDEX: dict[Any, int] = {**{letter: index for index, letter in enumerate(LETTERS)},
                                **{digit: len(LETTERS) + digit for digit in DIGITS}}


def symbol(value: Any) -> int:
    """A letter or digit's place on the symbol axis."""
    return SYMBOL_INDEX[value]


def code_symbols(part: np.ndarray, code_text: str | None) -> None:
    """Mark a code's three symbols, one row per position."""
    if code_text:
        code = parse_code(code_text)
        for row, position in enumerate(POSITIONS):
            part[row, symbol(code[position])] += 1.0


class CodingEncoder:
    def __init__(self, players: int, options: Any) -> None:
        self.players = players
        p = players
        self.layout = (
            Layout()
            .block("seat", p, doc="one-hot: the observing seat")
            .block("phase", len(PHASES), doc="one-hot: " + ", ".join(PHASES))
            .block("step", len(STEPS), doc="one-hot: " + ", ".join(STEPS))
            .block("round", 1, doc="hacking round number", high=MANY)
            .block("turn", p, doc="one-hot: the seat whose turn it is")
            .block("first_one", p, doc="one-hot: The First One card's holder")
            .block("to_move", p, doc="seats that may act now")
            .block("received", p, doc="seats that received a hack card this round")
            .block("last_give", 2, p, doc="one-hot: giver and receiver of the last hack card")
            .block("data_stacks", len(DATA_TYPES), doc="data cards left per type", high=2)
            .block("hack_row", ROW, len(POSITIONS) + SYMBOLS, doc="face-up hack cards: position one-hot, symbol set")
            .block("counts", 2, doc="[hack cards in the deck, leftover code cards]", high=MANY)
            .block("table", SYMBOLS, doc="leftover code cards dealt face up (stalemates)")
            .block("out", p, doc="seats out of the game")
            .block("data", p, len(DATA_TYPES), doc="data cards each seat holds")
            .block("cannot", p, len(DATA_TYPES), doc="per seat: times each type was on offer at a 'cannot take'",
                   high=MANY)
            .block("green", p, len(POSITIONS), SYMBOLS, doc="per seat and position: green hack cards naming each symbol",
                   high=MANY)
            .block("red", p, len(POSITIONS), SYMBOLS, doc="per seat and position: red hack cards naming each symbol",
                   high=MANY)
            .block("cards", p, len(POSITIONS), 2, doc="per seat and position: [green cards, red cards]", high=MANY)
            .block("revealed", p, len(POSITIONS), SYMBOLS, doc="code cards face up, by position")
            .block("wrong", p, p, len(POSITIONS), SYMBOLS, doc="wrong decodes: guesser, target, symbols named",
                   high=MANY)
            .block("own", 2, SYMBOLS, doc="own cards: [letter and digits dealt, -]")
            .block("own_code", len(POSITIONS), SYMBOLS, doc="own code once ordered")
            .block("cracking", p, 4, doc="per seat: [slapper, passed, reveal chosen, -]")
            .block("cracking_state", 3 + len(POSITIONS),
                   doc="[stalemate deals, may stop, passes in a row (counter modes), own reveal one-hot]",
                   high=MANY)
            .block("answered", p, p, doc="one-shot: who has written an answer about whom")
            .block("own_answers", p, len(POSITIONS), SYMBOLS, doc="one-shot: own written answers per target")
        )

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        vector = self.layout.zeros()
        parts = self.layout.parts(vector)
        part = parts.__getitem__
        one_hot(part("seat"), view["seat"])
        one_hot(part("phase"), PHASES.index(view["phase"]))
        one_hot(part("step"), STEPS.index(view["step"]))
        part("round")[0] = view["round"]
        one_hot(part("turn"), view["turn"])
        one_hot(part("first_one"), view["first_one"])
        seats(part("to_move"), view["to_move"])
        seats(part("received"), view["received"])
        if view["last_give"]:
            for row, seat in enumerate(view["last_give"]):
                part("last_give")[row, seat] = 1.0
        part("data_stacks")[:] = [view["data_stacks"][kind] for kind in DATA_TYPES]
        for slot, card in enumerate(view["hack_row"][:ROW]):
            self.hack_card(part("hack_row")[slot], card)
        part("counts")[:] = [view["hack_deck"], view["code_pile"]]
        for value in [*view["table"]["letters"], *view["table"]["digits"]]:
            part("table")[symbol(value)] += 1.0
        for sheet in view["sheets"]:
            self.sheet(parts, sheet)
        own = view["own"]
        if own is not None:
            for value in [own["letter"], *own["digits"]]:
                part("own")[0, symbol(value)] = 1.0
            code_symbols(part("own_code"), own["code"])
        self.cracking(parts, view)
        for seat, targets in view["answered"].items():
            seats(part("answered")[int(seat)], targets)
        for target, code in view["own_answers"].items():
            code_symbols(part("own_answers")[int(target)], code)
        return vector

    def hack_card(self, part: np.ndarray, card: dict[str, Any]) -> None:
        part[POSITIONS.index(card["position"])] = 1.0
        for value in card["values"]:
            part[len(POSITIONS) + symbol(value)] = 1.0

    def sheet(self, parts: dict[str, np.ndarray], sheet: dict[str, Any]) -> None:
        """One seat's public sheet into ``parts`` (the vector's blocks, from ``Layout.parts``)."""
        seat = sheet["seat"]
        part = lambda name: parts[name][seat]  # noqa: E731 - a short local accessor
        parts["out"][seat] = float(sheet["out"])
        for kind in sheet["data"]:
            part("data")[DATA_TYPES.index(kind)] = 1.0
        for offered in sheet["cannot"]:
            for kind in offered:
                part("cannot")[DATA_TYPES.index(kind)] += 1.0
        for hack in sheet["hacks"]:
            position = POSITIONS.index(hack["card"]["position"])
            part("cards")[position, 0 if hack["green"] else 1] += 1.0
            for value in hack["card"]["values"]:
                part("green" if hack["green"] else "red")[position, symbol(value)] += 1.0
        for row, position in enumerate(POSITIONS):
            value = sheet["revealed"][position]
            if value is not None:
                part("revealed")[row, symbol(value)] = 1.0
        for wrong in sheet["wrong_guesses"]:
            code_symbols(part("wrong")[wrong["target"]], wrong["code"])

    def cracking(self, parts: dict[str, np.ndarray], view: dict[str, Any]) -> None:
        table = parts["cracking"]
        one_hot(table[:, 0], view["slapper"])
        seats(table[:, 1], view["passed"])
        seats(table[:, 2], view["reveal_chosen"])
        state = parts["cracking_state"]
        state[0] = view["stalemate_deals"]
        state[1] = float(view["may_stop"])
        state[2] = view["passes_in_row"]
        if view["own_reveal"] is not None:
            state[3 + POSITIONS.index(view["own_reveal"])] = 1.0


def encoder(players: int, options: Any) -> CodingEncoder:
    return CodingEncoder(players, options)

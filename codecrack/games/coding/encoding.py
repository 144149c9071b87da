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

from ...core.features import Layout
from .cards import DATA_TYPES, DIGITS, LETTERS, POSITIONS, parse_code

PHASES = ("order", "hacking", "decoding", "cracking", "answering", "over")
STEPS = ("order", "data", "give", "choose", "penalty", "open", "answer", "stalemate", "answers", "over")
SYMBOLS = len(LETTERS) + len(DIGITS)
ROW = 5
MANY = 1000  # the bound of counting entries: far above any count a game reaches
CODE_ENTRIES = len(POSITIONS) * SYMBOLS


SYMBOL_INDEX: dict[Any, int] = {
    **{letter: index for index, letter in enumerate(LETTERS)},
    **{digit: len(LETTERS) + digit for digit in DIGITS},
}


def code_entries(at: int, code_text: str | None) -> list[int]:
    """The entries of a code's three symbols, one row of ``SYMBOLS`` per position, from ``at``."""
    if not code_text:
        return []
    code = parse_code(code_text)
    return [at + row * SYMBOLS + SYMBOL_INDEX[code[position]] for row, position in enumerate(POSITIONS)]


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
            .block(
                "cannot", p, len(DATA_TYPES), doc="per seat: times each type was on offer at a 'cannot take'", high=MANY
            )
            .block(
                "green",
                p,
                len(POSITIONS),
                SYMBOLS,
                doc="per seat and position: green hack cards naming each symbol",
                high=MANY,
            )
            .block(
                "red",
                p,
                len(POSITIONS),
                SYMBOLS,
                doc="per seat and position: red hack cards naming each symbol",
                high=MANY,
            )
            .block("cards", p, len(POSITIONS), 2, doc="per seat and position: [green cards, red cards]", high=MANY)
            .block("revealed", p, len(POSITIONS), SYMBOLS, doc="code cards face up, by position")
            .block(
                "wrong", p, p, len(POSITIONS), SYMBOLS, doc="wrong decodes: guesser, target, symbols named", high=MANY
            )
            .block("own", 2, SYMBOLS, doc="own cards: [letter and digits dealt, -]")
            .block("own_code", len(POSITIONS), SYMBOLS, doc="own code once ordered")
            .block("cracking", p, 4, doc="per seat: [slapper, passed, reveal chosen, -]")
            .block(
                "cracking_state",
                3 + len(POSITIONS),
                doc="[stalemate deals, may stop, passes in a row (counter modes), own reveal one-hot]",
                high=MANY,
            )
            .block("answered", p, p, doc="one-shot: who has written an answer about whom")
            .block("own_answers", p, len(POSITIONS), SYMBOLS, doc="one-shot: own written answers per target")
        )
        self.at = {name: where.start for name, (where, _, _) in self.layout.blocks.items()}

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        at, players = self.at, self.players
        ones: list[int] = []  # entries set to 1
        counts: list[int] = []  # entries counted up, once per occurrence
        ones += [at["phase"] + PHASES.index(view["phase"]), at["step"] + STEPS.index(view["step"])]
        for name in ("seat", "turn", "first_one"):
            if view[name] is not None:
                ones.append(at[name] + view[name])
        ones += [at["to_move"] + seat for seat in view["to_move"]]
        ones += [at["received"] + seat for seat in view["received"]]
        ones += [at["last_give"] + row * players + seat for row, seat in enumerate(view["last_give"] or ())]
        for slot, card in enumerate(view["hack_row"][:ROW]):
            base = at["hack_row"] + slot * (len(POSITIONS) + SYMBOLS)
            ones.append(base + POSITIONS.index(card["position"]))
            ones += [base + len(POSITIONS) + SYMBOL_INDEX[value] for value in card["values"]]
        counts += [at["table"] + SYMBOL_INDEX[value] for value in [*view["table"]["letters"], *view["table"]["digits"]]]
        for sheet in view["sheets"]:
            self.sheet(ones, counts, sheet)
        own = view["own"]
        if own is not None:
            ones += [at["own"] + SYMBOL_INDEX[value] for value in [own["letter"], *own["digits"]]]
            counts += code_entries(at["own_code"], own["code"])
        self.cracking(ones, view)
        for seat, targets in view["answered"].items():
            ones += [at["answered"] + int(seat) * players + target for target in targets]
        for target, code in view["own_answers"].items():
            counts += code_entries(at["own_answers"] + int(target) * CODE_ENTRIES, code)
        vector = np.bincount(counts, minlength=self.layout.size).astype(np.float32)
        vector.put(ones, 1.0)
        vector[at["round"]] = view["round"]
        vector[at["data_stacks"] : at["data_stacks"] + len(DATA_TYPES)] = [
            view["data_stacks"][kind] for kind in DATA_TYPES
        ]
        vector[at["counts"] : at["counts"] + 2] = [view["hack_deck"], view["code_pile"]]
        state = at["cracking_state"]
        vector[state : state + 3] = [view["stalemate_deals"], float(view["may_stop"]), view["passes_in_row"]]
        return vector

    def sheet(self, ones: list[int], counts: list[int], sheet: dict[str, Any]) -> None:
        """One seat's public sheet, as entries set to 1 (``ones``) and counted (``counts``)."""
        at, seat, kinds = self.at, sheet["seat"], len(DATA_TYPES)
        if sheet["out"]:
            ones.append(at["out"] + seat)
        ones += [at["data"] + seat * kinds + DATA_TYPES.index(kind) for kind in sheet["data"]]
        counts += [
            at["cannot"] + seat * kinds + DATA_TYPES.index(kind) for offered in sheet["cannot"] for kind in offered
        ]
        for hack in sheet["hacks"]:
            card, green = hack["card"], hack["green"]
            position = POSITIONS.index(card["position"])
            counts.append(at["cards"] + (seat * len(POSITIONS) + position) * 2 + (0 if green else 1))
            base = at["green" if green else "red"] + (seat * len(POSITIONS) + position) * SYMBOLS
            counts += [base + SYMBOL_INDEX[value] for value in card["values"]]
        revealed = at["revealed"] + seat * CODE_ENTRIES
        ones += [
            revealed + row * SYMBOLS + SYMBOL_INDEX[sheet["revealed"][position]]
            for row, position in enumerate(POSITIONS)
            if sheet["revealed"][position] is not None
        ]
        for wrong in sheet["wrong_guesses"]:
            counts += code_entries(at["wrong"] + (seat * self.players + wrong["target"]) * CODE_ENTRIES, wrong["code"])

    def cracking(self, ones: list[int], view: dict[str, Any]) -> None:
        table = self.at["cracking"]
        if view["slapper"] is not None:
            ones.append(table + view["slapper"] * 4)
        ones += [table + seat * 4 + 1 for seat in view["passed"]]
        ones += [table + seat * 4 + 2 for seat in view["reveal_chosen"]]
        if view["own_reveal"] is not None:
            ones.append(self.at["cracking_state"] + 3 + POSITIONS.index(view["own_reveal"]))


def encoder(players: int, options: Any) -> CodingEncoder:
    return CodingEncoder(players, options)

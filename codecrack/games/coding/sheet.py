"""One player's place at the table: their code, the cards in front of them, and their standing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import POSITIONS, Code, HackCard, code_text


@dataclass
class PlayerSheet:
    """Everything about one seat. ``public()`` is what the other seats can see."""

    seat: int
    letter: str
    digits: list[int]  # the two number cards, as dealt (sorted)
    code: Code | None = None  # set once the owner has ordered the digits
    data: list[str] = field(default_factory=list)  # data card types, in the order taken
    cannot: list[list[str]] = field(default_factory=list)  # each "cannot take": types then on offer
    hacks: list[dict[str, Any]] = field(default_factory=list)  # {"card": HackCard, "green": bool}
    revealed: list[str] = field(default_factory=list)  # positions face up, in reveal order
    wrong: list[dict[str, Any]] = field(default_factory=list)  # wrong decodes: {"target", "code"}
    out: bool = False

    @property
    def fixed_code(self) -> Code:
        """The code, once its owner has ordered the digits (every step after the first)."""
        assert self.code is not None, "the codes are ordered before anything else"
        return self.code

    def hidden(self, positions: tuple[str, ...] = POSITIONS) -> list[str]:
        """Positions among ``positions`` whose cards are still face down."""
        return [p for p in positions if p not in self.revealed]

    def reveal_all(self) -> None:
        self.revealed.extend(self.hidden())

    def place(self, card: HackCard, green: bool) -> None:
        self.hacks.append({"card": card, "green": green})

    def public(self) -> dict[str, Any]:
        """The sheet as every seat sees it, spoken facts included (shares state: the caller copies).
        The no-notes option is honoured by clients, which hide the history and the cracking sheet."""
        return {
            "seat": self.seat,
            "out": self.out,
            "data": self.data,
            "cannot": self.cannot,
            "hacks": self.hacks,
            "revealed": {p: (self.code[p] if p in self.revealed else None) for p in POSITIONS}
            if self.code
            else {p: None for p in POSITIONS},
            "wrong_decodes": len(self.wrong),
            "wrong_guesses": self.wrong,
        }

    def private(self) -> dict[str, Any]:
        """What only the owner knows: the dealt cards and the chosen order."""
        return {
            "letter": self.letter,
            "digits": list(self.digits),
            "code": code_text(self.code) if self.code else None,
            "x1": self.code["x1"] if self.code else None,
            "x2": self.code["x2"] if self.code else None,
        }

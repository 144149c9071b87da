"""Reading a view of The Coding: the public facts it shows and the seat's own code.

Only ``view(seat)`` is read, so whatever an agent concludes is something the seat may know.
"""

from __future__ import annotations

from typing import Any

from .facts import Code, Facts, code_of

View = dict[str, Any]


def own_code(view: View) -> Code | None:
    """The seat's own code once its digits are ordered, else ``None``."""
    own = view.get("own") or {}
    return code_of(own["code"]) if own.get("code") else None


def my_code(view: View) -> Code:
    """The seat's own code, in a step after the ordering (when every seat has one)."""
    code = own_code(view)
    assert code is not None, "the codes are ordered before anything else"
    return code


def facts_from_view(view: View, spoken: bool = True, guessers: bool = False) -> Facts:
    """Every public fact in ``view`` about every seat's code.

    ``spoken=False`` leaves out the spoken facts ("cannot take" declarations and other
    players' wrong decodes), as a casual player who only looks at the cards on the table
    would; the seat's own wrong decodes always count, so no tier repeats one.
    ``guessers=True`` adds that whoever named a wrong code probably holds none of its symbols
    (players rarely name a symbol of their own code, unless they bluff), as a likelihood
    (:meth:`~codecrack.games.coding.facts.Facts.reading_weights`).
    """
    facts = Facts(view["players"])
    for sheet in view["sheets"]:
        seat = sheet["seat"]
        for data_type in sheet["data"]:
            facts.took_data(seat, data_type)
        for hack in sheet["hacks"]:
            card = hack["card"]
            facts.hack_answer(seat, card["position"], card["values"], hack["green"])
        for position, value in sheet["revealed"].items():
            if value is not None:
                facts.revealed(seat, position, value)
        if spoken:
            for offered in sheet["cannot"]:
                facts.cannot_take(seat, offered)
        if spoken or seat == view["seat"]:  # a seat always remembers its own misses
            for guess in sheet["wrong_guesses"]:
                facts.wrong_decode(guess["target"], code_of(guess["code"]))
                if guessers:
                    facts.named_wrong(seat, code_of(guess["code"]))
    table = view.get("table") or {}
    facts.unused(table.get("letters", ()), table.get("digits", ()))
    return facts


def revealed_symbols(view: View, except_seat: int) -> tuple[list[str], list[int]]:
    """Letters and digits lying face up in front of seats other than ``except_seat``."""
    letters: list[str] = []
    digits: list[int] = []
    for sheet in view["sheets"]:
        if sheet["seat"] == except_seat:
            continue
        for position, value in sheet["revealed"].items():
            if value is not None:
                (letters if position == "letter" else digits).append(value)
    return letters, digits


def live_opponents(view: View) -> list[int]:
    """The other seats still in the game."""
    return [s["seat"] for s in view["sheets"] if s["seat"] != view["seat"] and not s["out"]]

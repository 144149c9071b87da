"""The cracking sheet: per-symbol candidates for a seat's code, from the facts in one view.

This is the paper sheet of the rulebook's tips, crossing out values symbol by symbol. It reads
only ``view`` (so it never knows more than the viewer) and ignores the links between symbols
(the exact joint beliefs live in the AI's belief engine).

>>> import codecrack
>>> game = codecrack.new_game("coding", players=2, seed=5, first=0)
>>> view = game.view(0)
>>> sorted(candidates(view, 1)["letter"]) == sorted(set("ABCDEF") - {view["own"]["letter"]})
True
"""

from __future__ import annotations

from typing import Any

from .cards import DATA_CARDS, DIGITS, LETTERS, POSITIONS
from .reading import revealed_symbols


def _seen_elsewhere(view: dict[str, Any], seat: int) -> tuple[set[str], set[int]]:
    """Letters and digits that are known to lie somewhere other than ``seat``'s code."""
    shown_letters, shown_digits = revealed_symbols(view, except_seat=seat)
    letters = set(view["table"]["letters"]) | set(shown_letters)
    digits = set(view["table"]["digits"]) | set(shown_digits)
    own = view.get("own")
    if own is not None and own["letter"] is not None and view["seat"] != seat:
        letters.add(own["letter"])
        digits.update(own["digits"])
    return letters, digits


def candidates(view: dict[str, Any], seat: int) -> dict[str, list[Any]]:
    """Values still possible for each position of ``seat``'s code, from public facts and the
    viewer's own cards."""
    sheet = view["sheets"][seat]
    if sheet["code"] is not None:
        code = sheet["code"]
        return {"letter": [code[0]], "x1": [int(code[1])], "x2": [int(code[2])]}
    letters, digits = _seen_elsewhere(view, seat)
    possible: dict[str, set[Any]] = {
        "letter": {x for x in LETTERS if x not in letters},
        "x1": {d for d in DIGITS if d not in digits},
        "x2": {d for d in DIGITS if d not in digits},
    }
    for kind in sheet["data"]:
        position, values = DATA_CARDS[kind]
        possible[position] -= values
    for offered in sheet["cannot"]:
        for kind in offered:
            position, values = DATA_CARDS[kind]
            possible[position] &= values
    for hack in sheet["hacks"]:
        card = hack["card"]
        named = set(card["values"])
        if hack["green"]:
            possible[card["position"]] &= named
        else:
            possible[card["position"]] -= named
    for position in POSITIONS:
        shown = sheet["revealed"][position]
        if shown is not None:
            possible[position] = {shown}
    for a, b in (("x1", "x2"), ("x2", "x1")):  # the two digits differ
        if len(possible[b]) == 1:
            possible[a] -= possible[b]
    return {position: sorted(values) for position, values in possible.items()}

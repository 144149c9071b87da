"""The Coding's hint for the notes panel: each opponent's code, letter and digits, from the asking
seat's own view (as the AI reads it)."""

from __future__ import annotations

from typing import Any

from .belief import CODES, Inconsistent
from .cards import LETTERS
from .reading import facts_from_view


def hint(view: dict[str, Any]) -> dict[str, Any]:
    """``{"seats": {seat: {"letter": {A: p}, "x1": {d: p}, "x2": {d: p}, "out", "best", "p_best"}}}``;
    ``out`` lists, per position, the symbols ruled out exactly (probability 0, before rounding)."""
    own = view["own"]
    mine = (own["letter"], *own["digits"])
    opponents = [sheet["seat"] for sheet in view["sheets"] if sheet["seat"] != view["seat"] and not sheet["out"]]
    try:
        belief, seats = facts_from_view(view).belief(view["seat"], mine, opponents)
        hint = {}
        for index, seat in enumerate(seats):
            marginals = belief.marginals(index)
            code, p_best = belief.best_code(index)
            hint[str(seat)] = {
                "letter": {letter: round(p, 4) for letter, p in zip(LETTERS, marginals["letter"])},
                "x1": {str(d): round(p, 4) for d, p in enumerate(marginals["x1"])},
                "x2": {str(d): round(p, 4) for d, p in enumerate(marginals["x2"])},
                "out": {
                    "letter": [letter for letter, p in zip(LETTERS, marginals["letter"]) if p == 0],
                    **{position: [d for d, p in enumerate(marginals[position]) if p == 0] for position in ("x1", "x2")},
                },
                "best": "".join(str(symbol) for symbol in CODES[code]),
                "p_best": p_best,
            }
    except Inconsistent:
        return {"seats": {}}
    return {"seats": hint}

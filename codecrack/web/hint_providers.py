"""Hint providers: each game's belief engine turned into what its cracking sheet shows.

Every provider reads only the asking seat's own view, exactly as the game's AI does.
"""

from __future__ import annotations

from typing import Any

View = dict[str, Any]


def coda_hint(view: View) -> dict[str, Any]:
    """``{"rows": [[{value: p} or None per tile]]}``: each tile's value probabilities for this seat."""
    from codecrack.games.coda.belief import DASH, solve
    from codecrack.games.coda.observe import position_from_view

    belief = solve(position_from_view(view))
    names = {value: ("-" if value == DASH else str(value)) for value in range(DASH + 1)}
    return {
        "rows": [
            [
                None
                if tile["value"] is not None
                else {names[v]: round(float(p), 4) for v, p in enumerate(belief.probs[r][i]) if p > 0}
                for i, tile in enumerate(row)
            ]
            for r, row in enumerate(view["rows"])
        ]
    }


def coding_hint(view: View) -> dict[str, Any]:
    """``{"seats": {seat: {"letter": {A: p}, "x1": {d: p}, "x2": {d: p}, "out", "best", "p_best"}}}``;
    ``out`` lists, per position, the symbols ruled out exactly (probability 0, before rounding)."""
    from codecrack.games.coding.belief import CODES, LETTERS, Inconsistent
    from codecrack.games.coding.reading import facts_from_view

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


def alphacode_hint(view: View) -> dict[str, Any] | None:
    """``{"squares": {"row,column": p_filled}, "settled": {"row,column": filled}, "candidates": n,
    "code": letters or None, "round": n}`` for the code this seat cracks; ``settled`` holds the squares every
    candidate fills, or leaves empty, alike; ``code`` is the last candidate once a single one is
    left (the table's "Declare")."""
    import numpy as np

    from codecrack.games.alphacode.knowledge import Tracker
    from codecrack.games.alphacode.solver import CodeSpace

    if view.get("target") is None:
        return None
    space = CodeSpace.for_view(view)
    alive = Tracker(target_of=lambda seen: seen["target"]).update(view)
    words = space.table.words[alive]
    squares, settled = {}, {}
    for index, (row, column) in enumerate(space.sheet.squares):
        bits = (words[:, index // 64] >> np.uint64(index % 64)) & np.uint64(1)
        squares[f"{row},{column}"] = round(float(bits.mean()), 4) if len(alive) else 0.0
        filled = int(bits.sum())
        if len(alive) and filled in (0, len(alive)):
            settled[f"{row},{column}"] = bool(filled)
    only = space.code_json(alive[0]) if len(alive) == 1 else None
    return {"squares": squares, "settled": settled, "candidates": int(len(alive)), "code": only, "round": view["round"]}

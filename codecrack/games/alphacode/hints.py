"""Alphabet Code's hint for the notes panel: each square's chance of being filled in the code this
seat cracks, from its own view (as the AI reads it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .knowledge import Tracker
from .solver import CodeSpace


def hint(view: dict[str, Any]) -> dict[str, Any] | None:
    """``{"squares": {"row,column": p_filled}, "settled": {"row,column": filled}, "candidates": n,
    "code": letters or None, "round": n}`` for the code this seat cracks; ``settled`` holds the squares every
    candidate fills, or leaves empty, alike; ``code`` is the last candidate once a single one is
    left (the table's "Declare")."""
    if view.get("target") is None:
        return None
    space = CodeSpace.for_view(view)
    alive = Tracker("target").update(view)
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

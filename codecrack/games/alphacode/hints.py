"""Alphabet Code's hint for the notes panel: each square's chance of being filled in the code this
seat cracks, from its own view (as the AI reads it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .knowledge import Tracker
from .solver import CodeSpace


def hint(view: dict[str, Any]) -> dict[str, Any] | None:
    """``{"squares": {"row,column": p_filled}, "candidates": n, "code": letters or None}`` for the code
    this seat cracks; ``code`` is the last candidate once a single one is left (the table's "Declare")."""
    if view.get("target") is None:
        return None
    space = CodeSpace.for_view(view)
    alive = Tracker(target_of=lambda seen: seen["target"]).update(view)
    words = space.table.words[alive]
    squares = {}
    for index, (row, column) in enumerate(space.sheet.squares):
        bits = (words[:, index // 64] >> np.uint64(index % 64)) & np.uint64(1)
        squares[f"{row},{column}"] = round(float(bits.mean()), 4) if len(alive) else 0.0
    only = space.code_json(alive[0]) if len(alive) == 1 else None
    return {"squares": squares, "candidates": int(len(alive)), "code": only}

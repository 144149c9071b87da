"""Coda's hint for the notes panel: each face-down tile's value probabilities, from the asking
seat's own view (as the AI reads it)."""

from __future__ import annotations

from typing import Any

from .belief import DASH, solve
from .observe import position_from_view


def hint(view: dict[str, Any]) -> dict[str, Any]:
    """``{"rows": [[{value: p} or None per tile]]}``: each tile's value probabilities for this seat."""
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

"""The decisive moves of a finished game: indices into its public history that hosts show in the
end-of-game summary (each game says which moves count, see ``docs/engine.md``)."""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def causes(history: list[Event], effects: set[str], moves: set[str]) -> list[int]:
    """For each event whose type is in ``effects``, the index of the nearest earlier event whose
    type is in ``moves`` (the move that caused it); each index once, in history order."""
    found: list[int] = []
    last_move: int | None = None
    for index, event in enumerate(history):
        if event["type"] in moves:
            last_move = index
        elif event["type"] in effects and last_move is not None and last_move not in found:
            found.append(last_move)
    return found

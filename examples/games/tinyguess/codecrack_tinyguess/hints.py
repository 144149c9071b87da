"""Tiny Guess's hint for the notes panel: the values the card you guess next may still be."""

from __future__ import annotations

from typing import Any


def hint(view: dict[str, Any]) -> dict[str, Any] | None:
    """``{"target": seat, "candidates": [values]}`` from the seat's own view: the answers given
    about that seat's card so far, and never the seat's own card. ``None`` for a spectator."""
    seat = view["seat"]
    if seat is None or seat in view["out"]:
        return None
    target = (seat + 1) % view["players"]
    while target in view["out"]:
        target = (target + 1) % view["players"]
    low, high = 1, view["high"]
    for event in view["history"]:
        if event["target"] == target and event["answer"] == "higher":
            low = max(low, event["value"] + 1)
        elif event["target"] == target and event["answer"] == "lower":
            high = min(high, event["value"] - 1)
    return {"target": target, "candidates": [v for v in range(low, high + 1) if v != view["card"]]}

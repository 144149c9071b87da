"""``codecrack bench messages``: what one action costs the web layer in messages, whole views
against deltas, on random games without a server (docs/benchmarks.md).

For every action of seeded random games, each audience (every seat and one spectator) gets its
message both ways: the whole view encoded with the standard library's ``json`` (the server before
deltas) and the delta from its previous view encoded with orjson (now). Making the views is timed
apart: both ways need them.
"""

from __future__ import annotations

import json
import random
import time
from statistics import median
from typing import Any

from ..core.registry import new_game
from ..protocol.deltas import diff
from ..web.actions import player_view
from ..web.connections import encode


def whole_text(step: int, view: dict[str, Any]) -> str:
    """The state message as the server encoded it before deltas."""
    message = {"type": "state", "step": step, "view": view, "clock": None}
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def delta_text(step: int, old: dict[str, Any], new: dict[str, Any]) -> str:
    return encode({"type": "delta", "base": step - 1, "step": step, "changes": diff(old, new), "clock": None})


def messages_benchmark(
    game: str = "coda", games: int = 20, seed: int = 0, players: int = 2, **options: Any
) -> dict[str, Any]:
    """Per action (all audiences together): bytes and encoding CPU of whole views and of deltas."""
    per_action: dict[str, list[float]] = {
        "whole_bytes": [],
        "delta_bytes": [],
        "view_ms": [],
        "whole_ms": [],
        "delta_ms": [],
    }
    for index in range(int(games)):
        match = new_game(game, players=int(players), seed=int(seed) + index, **options)
        rng = random.Random(int(seed) + index)
        audiences = [None, *range(match.players)]
        views = {seat: player_view(match.view(seat)) for seat in audiences}
        step = 0
        while not match.over:
            seat = rng.choice(sorted(match.to_move))
            match.apply(seat, rng.choice(match.legal_actions(seat)))
            step += 1
            sample = _one_action(match, audiences, views, step)
            for key, value in sample.items():
                per_action[key].append(value)
    return {
        "benchmark": "messages",
        "game": game,
        "players": int(players),
        "games": int(games),
        "actions": len(per_action["whole_bytes"]),
        "audiences": int(players) + 1,
        "median_per_action": {key: round(median(values), 4) for key, values in per_action.items()},
        "mean_per_action": {key: round(sum(values) / len(values), 4) for key, values in per_action.items()},
    }


def _one_action(
    match, audiences: list[int | None], views: dict[int | None, dict[str, Any]], step: int
) -> dict[str, float]:
    """Make every audience's new view, then its message both ways; ``views`` moves on a step."""
    started = time.process_time()
    fresh = {seat: player_view(match.view(seat)) for seat in audiences}
    made = time.process_time()
    whole = [whole_text(step, fresh[seat]) for seat in audiences]
    wholes_done = time.process_time()
    deltas = [delta_text(step, views[seat], fresh[seat]) for seat in audiences]
    deltas_done = time.process_time()
    views.update(fresh)
    return {
        "whole_bytes": sum(len(text.encode()) for text in whole),
        "delta_bytes": sum(len(text.encode()) for text in deltas),
        "view_ms": 1000 * (made - started),
        "whole_ms": 1000 * (wholes_done - made),
        "delta_ms": 1000 * (deltas_done - wholes_done),
    }


BENCHMARKS = {"messages": messages_benchmark}

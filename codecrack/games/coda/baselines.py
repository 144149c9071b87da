"""Coda baseline agents for the arena, beside the tiers of :mod:`.agents`.

* ``greedy``: exact beliefs, always the likeliest (tile, value) guess, and after a hit it goes on
  while that guess is at least ``threshold`` likely (default 0.4), whatever the pile holds.
  Everything else (opening mix, draw colour, dash placement, reveals) is ``medium``'s.

In the arena: ``greedy`` or ``greedy:0.3`` (the threshold), see ``docs/ai.md``.
"""

from __future__ import annotations

from typing import Any

from .agents import MediumAgent


class GreedyAgent(MediumAgent):
    """``medium`` with one continue threshold, kept even when a miss would cost more than the
    drawn tile."""

    name = "greedy"
    primary_setting = "threshold"

    def __init__(self, seed: int = 0, threshold: float = 0.4, **settings: Any) -> None:
        super().__init__(seed, keep_going=float(threshold), **settings)

    def threshold(self, view: dict[str, Any]) -> float:
        return self.keep_going


AGENTS = {"greedy": GreedyAgent}

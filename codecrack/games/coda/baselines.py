"""Coda baseline agents for the arena, beside the tiers of :mod:`.agents`.

* ``greedy``: exact beliefs, always the likeliest (tile, value) guess, and after a hit it goes on
  while that guess is at least ``threshold`` likely (default 0.4). Everything else (opening mix,
  draw colour, dash placement, reveals) is the shared :class:`~.agents.CodaAgent` behaviour.

In the arena: ``greedy`` or ``greedy:0.3`` (the threshold), see ``docs/ai.md``.
"""

from __future__ import annotations

from typing import Any

from .agents import CodaAgent

Action = dict[str, Any]
View = dict[str, Any]


class GreedyAgent(CodaAgent):
    """Guess the likeliest (tile, value); after a hit, go on while its chance is >= ``threshold``."""

    name = "greedy"
    primary_setting = "threshold"
    threshold = 0.4

    def guess_or_stop(self, view: View) -> Action:
        position, belief = self.knowledge(view)
        options = self.options(view, position, belief)
        top = [g for g in options if g.p == options[0].p]
        best = self.rng.choice(top)
        if view["hits_this_turn"] and best.p < self.threshold:
            return {"type": "stop"}
        return best.action()


AGENTS = {"greedy": GreedyAgent}

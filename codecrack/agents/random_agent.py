"""An agent that picks uniformly among the legal actions; it plays any game."""

from __future__ import annotations

from typing import Any

from ..core.agent import Agent


class RandomAgent(Agent):
    name = "random"

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        return self.rng.choice(view["legal_actions"])

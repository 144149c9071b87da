"""The Coding test agents for the arena, beside the tiers of :mod:`.agents`.

* ``bluffer``: plays the ``medium`` tier, but on its first decoding turns it decodes an opponent
  as a code that uses its *own* letter (with that opponent's likeliest digits), on purpose: a
  sure miss that tells a reader of wrong decodes "I do not hold this letter". Its penalty reveals
  then avoid the letter, so the lie is not shown up at once. ``bluffs`` (default 1) is how many
  such decodes it makes, never with its last allowed miss.
"""

from __future__ import annotations

from typing import Any

from .agents import MEDIUM, CodingAgent, Reading
from .tactics import best_answer

Action = dict[str, Any]


class BluffingAgent(CodingAgent):
    name = "bluffer"

    def __init__(self, seed: int = 0, bluffs: int = 1, **settings: Any) -> None:
        super().__init__(MEDIUM, seed=seed, **settings)
        self.name = "bluffer"
        self.bluffs = int(bluffs)
        self.bluffed = 0

    def choose_turn(self, reading: Reading, legal: list[Action]) -> Action:
        sheet = reading.view["sheets"][reading.me]
        if self.bluffed < self.bluffs and sheet["wrong_decodes"] == 0 and reading.beliefs:
            self.bluffed += 1
            return self.bluff(reading)
        return super().choose_turn(reading, legal)

    def bluff(self, reading: Reading) -> Action:
        """Decode the likeliest opponent as my letter with their likeliest two digits (my own
        digits have no chance there, so they are never among them)."""
        _, target, _ = reading.best_decode()
        digits = best_answer(reading.beliefs[target])[0][1:]
        return {"type": "decode", "target": target, "code": reading.mine[0] + digits}

    def choose_reveal(self, reading: Reading, legal: list[Action]) -> Action:
        """Keep the bluffed letter hidden as long as another card may be turned up."""
        others = [a for a in legal if a["card"] != "letter"]
        return super().choose_reveal(reading, others or legal)


AGENTS = {"bluffer": BluffingAgent}

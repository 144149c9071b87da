"""Search over sampled worlds for ``hard``: draw hidden worlds from one seat's exact belief, set
each up as a game, and play it out with fast agents (perfect-information Monte Carlo).

Only the seat's own view goes in: :func:`.worlds.sample_values` draws every face-down value the
seat cannot see from its exact posterior, and :func:`.worlds.world_game` builds a game that agrees
with the view in everything the seat can see, with the sampled values in the hidden places and the
unseen tiles shuffled into the pile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from ...agents.base import Agent
from .belief import Belief, Position, effort
from .rules import CodaGame
from .worlds import View, sample_values, world_game


def playout_cost(view: View, position: Position) -> int:
    """A deterministic estimate of one playout's work, in simulated actions of a 2-player game:
    about three actions per face-down tile (measured on medium games: a guess, plus the draws,
    stops and misses of the turns it takes), each dearer as the seat's exact count grows (the
    count is most of an action's cost; 32 is about a 4-player table without dashes)."""
    actions = 3 * sum(not tile["revealed"] for row in view["rows"] for tile in row)
    return actions * (1 + effort(position) // 32)


@dataclass(frozen=True)
class Playouts:
    """How to estimate an action's win chance: ``worlds`` sampled worlds, each played to the end
    by fresh ``policy`` agents (all seats), at most ``steps`` actions per playout (a playout cut
    short counts as a share ``1 / players still in``)."""

    worlds: int
    policy: Callable[[int], Agent]
    steps: int = 400

    def values(self, view: View, position: Position, belief: Belief, actions: list[dict[str, Any]],
               rng: random.Random) -> list[list[float]]:
        """``result[a][w]``: the seat's win (1, 0 or a share) in world ``w`` after action ``a``.
        Every action meets the same worlds and the same playout seeds (common random numbers)."""
        seat = view["seat"]
        results: list[list[float]] = [[] for _ in actions]
        for _ in range(self.worlds):
            values = sample_values(position, belief, rng)
            world_seed = rng.getrandbits(32)
            for a, action in enumerate(actions):
                local = random.Random(world_seed)
                game = world_game(view, values, local)
                results[a].append(self.play(game, seat, action, local.getrandbits(32)))
        return results

    def play(self, game: CodaGame, seat: int, action: dict[str, Any], seed: int) -> float:
        game.apply(seat, action)
        agents: dict[int, Agent] = {}
        for _ in range(self.steps):
            if game.over:
                return 1.0 if seat in game.result["winners"] else 0.0
            actor = min(game.to_move)
            if actor not in agents:
                agents[actor] = self.policy(seed * 7 + actor)
            game.apply(actor, agents[actor].act(game.view(actor)))
        if game.over:
            return 1.0 if seat in game.result["winners"] else 0.0
        alive = [s for s in range(game.players) if s not in game.eliminated]
        return 1.0 / len(alive) if seat in alive else 0.0

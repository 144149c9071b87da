"""Search over sampled worlds for ``hard``: draw hidden worlds from one seat's exact belief, set
each up as a game, and play it out with fast agents (perfect-information Monte Carlo).

Only the seat's own view goes in: :func:`sample_values` draws every face-down value of the other
rows from the seat's exact posterior (tile by tile, each drawn from its exact marginal given the
ones drawn before, so the joint draw is exact), and :func:`world_game` builds a game that agrees
with the view in everything the seat can see, with the sampled values in the hidden places and the
unseen tiles shuffled into the pile.

>>> from codecrack.core.registry import new_game
>>> from codecrack.games.coda.observe import position_from_view
>>> game = new_game("coda", players=2, seed=4, draw="deck")
>>> view = game.view(0)
>>> position = position_from_view(view)
>>> world = world_game(view, sample_values(position, solve(position), view["seat"], random.Random(1)), random.Random(2))
>>> world.view(0)["rows"][0] == view["rows"][0]
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from ...agents.base import Agent
from ...core.registry import new_game
from .belief import Belief, Position, effort, solve
from .observe import value_name
from .rules import CodaGame
from .search import hidden, with_value
from .tiles import Tile, full_set

View = dict[str, Any]
Values = dict[tuple[int, int], int]  # (seat, index) -> sampled belief value (0-11 or DASH)


def sample_values(position: Position, belief: Belief, seat: int, rng: random.Random) -> Values:
    """One world drawn exactly from ``belief``: a value for every hidden tile of the other rows."""
    values: Values = {}
    places = [(s, i) for s in range(len(position.rows)) if s != seat for i in hidden(position, s)]
    for n, (s, i) in enumerate(places):
        weights = belief.probs[s][i]
        value = rng.choices(range(len(weights)), weights=weights)[0]
        values[(s, i)] = value
        if n + 1 < len(places):
            position = with_value(position, s, i, value)
            belief = solve(position)
    return values


def world_game(view: View, values: Values, rng: random.Random) -> CodaGame:
    """A one-round game at the seat's decision point, with ``values`` in the hidden places.

    The rows, the public history, the drawn tile, the hits this turn and who is out are the
    view's; the tiles nobody shows are shuffled into the pile with ``rng``.
    """
    options = {k: v for k, v in view["options"].items() if k != "rounds"}
    game = new_game("coda", players=view["players"], seed=rng.getrandbits(32), **options)
    rows = []
    for s, row in enumerate(view["rows"]):
        tiles = []
        for i, tile in enumerate(row):
            value = tile["value"] if tile["value"] is not None else value_name(values[(s, i)])
            tiles.append(Tile(tile["color"], value, tile["id"], tile["revealed"]))
        rows.append(tiles)
    drawn = view["drawn"]
    drawn_tile = Tile(drawn["color"], drawn["value"]) if drawn else None
    used = {(t.color, t.value) for row in rows for t in row} | ({(drawn_tile.color, drawn_tile.value)} if drawn_tile else set())
    pile = [t for t in full_set(bool(view["options"].get("dashes"))) if (t.color, t.value) not in used]
    rng.shuffle(pile)
    seats = set(range(view["players"]))
    game.rows, game.pile, game.drawn, game.drawn_face_up = rows, pile, drawn_tile, False
    game.next_id = [max((t.id for t in row), default=-1) + 1 for row in rows]
    game.unplaced = [[] for _ in seats]
    game.shown, game.opened, game.ready = [True] * len(seats), set(seats), set(seats)
    game.eliminated = list(view["eliminated"])
    game.history = [dict(event) for event in view["history"]]
    game.round, game.current, game.hits, game.phase = view["round"], view["current"], view["hits_this_turn"], "guess"
    return game


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
            values = sample_values(position, belief, seat, rng)
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

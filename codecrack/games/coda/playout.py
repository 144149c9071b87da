"""Search over sampled worlds for ``hard``: draw hidden worlds from one seat's exact belief, set
each up as a game, and play it out with fast agents (perfect-information Monte Carlo).

Only the seat's own view goes in: :func:`.worlds.sample_values` draws every face-down value the
seat cannot see from its exact posterior, and :func:`.worlds.world_game` builds a game that agrees
with the view in everything the seat can see, with the sampled values in the hidden places and the
unseen tiles shuffled into the pile.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from .belief import ANY, Belief, Position, Tile, effort
from .observe import COLORS, value_code
from .rules import CodaGame
from .worlds import View, sample_values, world_game


def playout_cost(view: View, position: Position) -> int:
    """A deterministic estimate of one playout's work, in simulated actions of a 2-player game:
    about three actions per face-down tile (measured on medium games: a guess, plus the draws,
    stops and misses of the turns it takes), each dearer as the seat's exact count grows (the
    count is most of an action's cost; 32 is about a 4-player table without dashes)."""
    actions = 3 * sum(not tile["revealed"] for row in view["rows"] for tile in row)
    return actions * (1 + effort(position) // 32)


class Policy(Protocol):
    """A playout agent: decides for ``seat`` from the simulated game (see ``RolloutMedium``)."""

    def act_in(self, game: CodaGame, seat: int, misses: Misses) -> dict[str, Any]: ...


class Misses:
    """Values ruled out for each tile ``(seat, id)`` by the round's missed guesses of its colour
    (what :func:`.observe.missed_values` reads from a view), kept up to date as a simulated game
    goes on: each call reads only the events added since the last one."""

    def __init__(self) -> None:
        self.masks: dict[tuple[int, int], int] = {}
        self.read = 0

    def catch_up(self, game: CodaGame) -> dict[tuple[int, int], int]:
        for event in game.history[self.read :]:
            if event["type"] == "round_over":
                self.masks = {}
            elif event["type"] == "guess" and not event["hit"]:
                place = (event["target"], event["tile"])
                tile = next((t for t in game.rows[place[0]] if t.id == place[1]), None)  # None: an earlier round
                if tile is not None and tile.color == event["color"]:
                    self.masks[place] = self.masks.get(place, 0) | 1 << value_code(event["value"])
        self.read = len(game.history)
        return self.masks


def seat_position(game: CodaGame, seat: int, misses: dict[tuple[int, int], int]) -> Position:
    """``position_from_view(game.view(seat))`` read straight from a game without the memory
    variant (``misses``: from :class:`Misses`): the seat's own values, revealed values, missed
    guesses, and the drawn tile when the seat may see it."""
    rows = [
        [
            _tile(t.color, t.value if t.revealed or owner == seat else None, ANY & ~misses.get((owner, t.id), 0))
            for t in row
        ]
        for owner, row in enumerate(game.rows)
    ]
    in_hand = list(game.unplaced[seat])
    if game.drawn is not None and (seat == game.current or game.drawn_face_up):
        in_hand.append(game.drawn)
    return Position(rows, game.options.dashes, frozenset((COLORS[t.color], value_code(t.value)) for t in in_hand))


@cache
def _tile(color: str, value: int | str | None, allowed: int) -> Tile:
    """The belief tile of an engine tile's colour and (known) value: a few hundred distinct ones,
    made once (tiles are immutable)."""
    return Tile(COLORS[color], value_code(value), allowed)


def turn_sketch(game: CodaGame, seat: int) -> View:
    """The few entries of ``game.view(seat)`` that ``medium``'s guess-or-stop reads besides the
    rows: who plays, who is out, the hits this turn, the drawn tile and the options."""
    drawn = game.drawn
    return {
        "seat": seat,
        "players": game.players,
        "eliminated": game.eliminated,
        "current": game.current,
        "hits_this_turn": game.hits,
        "options": game.options_json,
        "drawn": drawn and {"color": drawn.color, "value": drawn.value if seat == game.current else None},
    }


@dataclass(frozen=True)
class Playouts:
    """How to estimate an action's win chance: ``worlds`` sampled worlds, each played to the end
    by fresh agents, ``policy(seed, seat)`` for each seat, at most ``steps`` actions per playout (a playout cut
    short counts as a share ``1 / players still in``)."""

    worlds: int
    policy: Callable[[int, int], Policy]
    steps: int = 400

    def values(
        self, view: View, position: Position, belief: Belief, actions: list[dict[str, Any]], rng: random.Random
    ) -> list[list[float]]:
        """``result[a][w]``: the seat's win (1, 0 or a share) in world ``w`` after action ``a``.
        Every action meets the same worlds and the same playout seeds (common random numbers)."""
        seat = view["seat"]
        results: list[list[float]] = [[] for _ in actions]
        drawn = getattr(belief, "sample_world", None)  # worlds weighed by reading the guessers
        for _ in range(self.worlds):
            values = drawn(rng) if drawn else sample_values(position, belief, rng)
            world_seed = rng.getrandbits(32)
            for a, action in enumerate(actions):
                local = random.Random(world_seed)
                game = world_game(view, values, local)
                results[a].append(self.play(game, seat, action, local.getrandbits(32)))
        return results

    def play(self, game: CodaGame, seat: int, action: dict[str, Any], seed: int) -> float:
        game.apply(seat, action)
        agents: dict[int, Policy] = {}
        misses = Misses()
        for _ in range(self.steps):
            if (result := game.result) is not None:
                return 1.0 if seat in result["winners"] else 0.0
            actor = min(game.to_move)
            if actor not in agents:
                agents[actor] = self.policy(seed * 7 + actor, actor)
            game.apply(actor, agents[actor].act_in(game, actor, misses))
        if (result := game.result) is not None:
            return 1.0 if seat in result["winners"] else 0.0
        alive = [s for s in range(game.players) if s not in game.eliminated]
        return 1.0 / len(alive) if seat in alive else 0.0

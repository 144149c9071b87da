"""An agent sent to a worker process and back between moves (pickled, as the web's bots are) plays
exactly as one that stayed: shared by each game's agents' travel test."""

from __future__ import annotations

import pickle
from collections.abc import Callable

from codecrack.core.agent import Agent
from codecrack.core.game import Game
from codecrack.core.runner import next_actor


def plays_the_same_after_travels(game: Game, make: Callable[[int], Agent]) -> None:
    """Play ``game`` to its end with an agent per seat that stays and a twin pickled before each move."""
    stayed = {seat: make(seat) for seat in range(game.players)}
    travels = {seat: make(seat) for seat in range(game.players)}
    while not game.over:
        seat = next_actor(game, stayed)
        view = game.view(seat)
        travels[seat] = pickle.loads(pickle.dumps(travels[seat]))
        action = stayed[seat].act(view)
        assert travels[seat].act(view) == action
        game.apply(seat, action)

"""One game driven one seat at a time: what every environment wrapper shares.

Environments ask one agent at a time, so the engine's multi-seat steps are serialised:

- **Simultaneous steps** (Coda's opening and setup, The Coding's ordering, stalemate reveals and
  one-shot answers, Alphabet Code's codes and last declarations): the seats to move choose in
  seat order, each from its own view of the state *before* anyone's choice; the choices are
  held back and applied together, in seat order, once the last seat has chosen. No seat sees
  another's choice, not even that it was made, so the order gives no information.
- **Real-time steps** (The Coding's speed mode, where the first slap wins): modelled as turns,
  each remaining seat in rotation deciding to slap or to wait (``pass``). A slap is applied at
  once. This is the one approximation: reaction speed is replaced by the rotation.

>>> table = SerialTable.new("coda", players=2, seed=3)
>>> table.actor(), sorted(table.game.to_move)
(0, [0, 1])
>>> table.act(0, table.legal(0)[0]); table.actor(), sorted(table.game.to_move)
(1, [0, 1])
>>> table.act(1, table.legal(1)[0]); sorted(table.game.to_move)
[0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import IllegalAction, OptionError
from ..core.game import Action, Game
from ..core.nature import Nature
from ..core.registry import game_module, new_game


def observation_encoder(name: str, players: int, options: Any):
    """The game's encoder (``encoding.encoder(players, options)``: ``.layout``, ``.encode(view)``)."""
    module = game_module(name, "encoding")
    if module is None:
        raise OptionError(f"{name} has no observation encoder (an 'encoding' module beside its rules)")
    return module.encoder(players, options)


class SerialTable:
    """A game, its declared nature, and the serialisation of its multi-seat steps."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.nature: Nature = type(game).nature(game.players, **game.options.model_dump())
        self.waiting: list[int] = []            # seats still to choose in this simultaneous step
        self.held: list[tuple[int, Action]] = []   # choices made in it, not applied yet
        self.rotation = -1                      # the last seat asked in a real-time step

    @classmethod
    def new(cls, name: str, *, players: int, seed: int | None = None, **options: Any) -> SerialTable:
        return cls(new_game(name, players=players, seed=seed, **options))

    @property
    def over(self) -> bool:
        return self.game.over

    def actor(self) -> int | None:
        """The seat to ask now; ``None`` once the game is over."""
        if self.game.over:
            return None
        if self.waiting:
            return self.waiting[0]
        to_move = sorted(self.game.to_move)
        kind = self.nature.step_dynamics(self.game)
        if kind == "real_time":
            return next((seat for seat in to_move if seat > self.rotation), to_move[0])
        if kind == "simultaneous":
            self.waiting = to_move
        return to_move[0]

    def legal(self, seat: int) -> list[Action]:
        """The actions ``seat`` may choose now (none unless it is the seat to ask)."""
        return self.game.legal_actions(seat) if seat == self.actor() else []

    def act(self, seat: int, action: Action) -> None:
        """``seat``'s choice: applied now, or held until the simultaneous step's last choice."""
        if seat != self.actor():
            raise IllegalAction(f"seat {seat} is not the seat to act (seat {self.actor()} is)")
        if not self.waiting:
            self.rotation = seat
            self.game.apply(seat, action)
            return
        if action not in self.game.legal_actions(seat):
            raise IllegalAction(f"{action!r} is not a legal action for seat {seat} now")
        self.held.append((seat, dict(action)))
        self.waiting.pop(0)
        if not self.waiting:
            held, self.held = self.held, []
            for chooser, choice in held:
                self.game.apply(chooser, choice)

    def mask(self, seat: int) -> np.ndarray:
        return self.nature.actions.mask(self.legal(seat))

    def act_index(self, seat: int, index: int) -> None:
        self.act(seat, self.nature.actions.action(int(index), self.legal(seat)))

    def utilities(self) -> list[float]:
        return self.nature.utilities(self.game.result, self.game.players)

    def step_limit(self, rounds: int = 8) -> int:
        """Actions after which a wrapper truncates: the declared bound, or ``rounds`` rounds' worth
        when the rules bound only each round."""
        return self.nature.max_length * (1 if self.nature.rounds_bounded else rounds)

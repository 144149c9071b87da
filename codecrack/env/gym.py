"""A Gymnasium environment: one seat of a codecrack game, the others played by codecrack agents.

>>> from codecrack.env.gym import make
>>> env = make("coda", seat=0, opponents="random", players=2)
>>> observation, info = env.reset(seed=4)
>>> sorted(observation), observation["action_mask"].dtype.name
(['action_mask', 'observation'], 'int8')

The observation is the PettingZoo one (:mod:`codecrack.env.pettingzoo`): the encoded view of
the learner's seat and the mask of its legal actions. The reward is the learner's utility when
the game ends (its win share, or its score in The Coding's one-shot) and 0 before. An illegal action changes nothing (see :meth:`CodecrackEnv.step`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import make_agent
from ..core.errors import IllegalAction, OptionError
from ..core.registry import game_class
from .table import SerialTable, observation_encoder


class CodecrackEnv(gymnasium.Env):
    """Seat ``seat`` of ``game``; the other seats are codecrack agents named in ``opponents``."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "hard",
        players: int = 2,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        cls = game_class(game)
        self.nature = cls.nature(players, **options)
        if not 0 <= seat < players:
            raise OptionError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise OptionError(f"give one opponent per other seat ({players - 1}), not {len(names)}")
        self.game_name, self.seat, self.players, self.options = game, seat, players, options
        self.opponent_names = dict(zip([s for s in range(players) if s != seat], names))
        for name in names:
            make_agent(name, game)  # an unknown agent fails here, listing the valid ones
        self.render_mode = render_mode
        self.encoder = observation_encoder(game, players, cls.Options(**options))
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, self.encoder.layout.highs(), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.nature.actions.size,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.nature.actions.size)
        self.table: SerialTable | None = None

    @property
    def playing(self) -> SerialTable:
        """The table of the episode that :meth:`reset` started."""
        if self.table is None:
            raise RuntimeError("no episode: call reset() first")
        return self.table

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.table = SerialTable.new(
            self.game_name, players=self.players, seed=game_seed, nature=self.nature, **self.options
        )
        self.opponents = {
            seat: make_agent(name, self.game_name, seed=game_seed + seat) for seat, name in self.opponent_names.items()
        }
        self.steps = 0
        self._play_opponents()
        return self._observation(), {}

    def step(self, action: int):
        """Play ``action`` (a slot of the action space). An illegal slot changes nothing: the
        step reports it in ``info["illegal_action"]`` and still counts towards truncation."""
        info: dict[str, Any] = {}
        self.steps += 1
        try:
            self.playing.act_index(self.seat, action)
        except IllegalAction as error:
            info["illegal_action"] = str(error)
        self._play_opponents()
        terminated = self.playing.over
        truncated = not terminated and self.steps >= self.playing.step_limit()
        reward = self.playing.utilities()[self.seat] if terminated else 0.0
        return self._observation(), reward, terminated, truncated, info

    def _play_opponents(self) -> None:
        """Let the codecrack agents act until the learner's seat must choose or the game ends."""
        while (actor := self.playing.actor()) is not None and actor != self.seat:
            self.playing.act(actor, self.opponents[actor].act(self.playing.game.view(actor)))

    def _observation(self) -> dict[str, np.ndarray]:
        return self.playing.observation(self.seat, self.encoder)

    def view(self) -> dict[str, Any]:
        """The learner's view: what the observation encodes."""
        return self.playing.game.view(self.seat)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return f"{self.game_name}: {self.view()}"


def make(game: str, seat: int = 0, opponents: str | Sequence[str] = "hard", **options: Any) -> CodecrackEnv:
    """The Gymnasium environment of ``game`` (``players=...`` and game options as keywords)."""
    return CodecrackEnv(game, seat=seat, opponents=opponents, **options)

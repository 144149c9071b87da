"""PettingZoo AEC environments for every codecrack game and configuration.

>>> from codecrack.env.pettingzoo import env
>>> aec = env("coda", players=2)
>>> aec.reset(seed=1)
>>> sorted(aec.observe(aec.agent_selection))
['action_mask', 'observation']

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the game's
encoder applied to exactly ``view(agent)``, and the legal slots of the declared action space.
Multi-seat steps are serialised as :mod:`codecrack.env.table` explains. Rewards come at the end:
each seat's utility (its win share, or its score in The Coding's one-shot).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..core.registry import game_class
from .table import SerialTable, observation_encoder


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class CodecrackAEC(AECEnv):
    """One codecrack game as an agent-environment-cycle environment."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int = 2, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game_name, self.players, self.options = game, players, options
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"codecrack_{game}_v0"}
        self.nature = game_class(game).nature(players, **options)
        parsed = game_class(game).Options(**options)
        self.encoder = observation_encoder(game, players, parsed)
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, self.encoder.layout.highs(), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.nature.actions.size,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.nature.actions.size)
        self.table: SerialTable | None = None

    @property
    def playing(self) -> SerialTable:
        """The table of the episode that :meth:`reset` started."""
        if self.table is None:
            raise RuntimeError("no episode: call reset() first")
        return self.table

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self.table = SerialTable.new(
            self.game_name, players=self.players, seed=seed, nature=self.nature, **self.options
        )
        self.limit = self.playing.step_limit()
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = agent_name(self.actor())

    def actor(self) -> int:
        """The seat to act in a game not yet over."""
        actor = self.playing.actor()
        if actor is None:
            raise RuntimeError("the game is over: no seat acts")
        return actor

    def view(self, agent: str) -> dict[str, Any]:
        """The engine's view of ``agent``'s seat: what the observation encodes."""
        return self.playing.game.view(self.seat_of[agent])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.playing.observation(self.seat_of[agent], self.encoder)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: only an agent whose game ended steps with None")
        self._cumulative_rewards[agent] = 0.0
        self.playing.act_index(self.seat_of[agent], action)
        self.steps += 1
        if self.playing.over:
            self.rewards = dict(zip(self.agents, self.playing.utilities()))
            self.terminations = {name: True for name in self.agents}
            self._accumulate_rewards()  # rewards come only at the end: nothing to add before
        elif self.steps >= self.limit:
            self.truncations = {name: True for name in self.agents}
        actor = self.playing.actor()
        self.agent_selection = agent if actor is None else self.possible_agents[actor]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return f"{self.game_name}: {self.playing.game.view(None)}"

    def close(self) -> None:
        self.table = None


def raw_env(game: str, players: int = 2, render_mode: str | None = None, **options: Any) -> CodecrackAEC:
    return CodecrackAEC(game, players=players, render_mode=render_mode, **options)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, with the attributes that ``agent_iter``, ``last``
    and ``step`` read at every step forwarded by properties rather than by ``__getattr__`` (the
    same checks; a failed attribute look-up per read was about a sixth of a step's cost), and
    ``last`` and ``observe`` handed to the environment once the before-reset check is passed."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)


def _forwarded(name: str) -> property:
    def read(self: OrderEnforcing) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read)


for _name in ("rewards", "terminations", "truncations", "infos", "agent_selection", "agents"):
    setattr(OrderEnforcing, _name, _forwarded(_name))
OrderEnforcing._cumulative_rewards = property(lambda self: self.env._cumulative_rewards)


def env(game: str, players: int = 2, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The AEC environment of ``game`` for ``players`` seats and game ``options``, wrapped in
    PettingZoo's order-enforcing wrapper (``env.unwrapped`` is the :class:`CodecrackAEC`)."""
    return OrderEnforcing(raw_env(game, players, render_mode, **options))

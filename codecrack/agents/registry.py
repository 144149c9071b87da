"""Agents by name: ``random`` for every game, plus each game's own ``AGENTS`` table."""

from __future__ import annotations

from typing import Any, Callable

from ..core.errors import OptionError
from ..core.registry import game_module
from .base import Agent
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]
GENERIC: dict[str, AgentFactory] = {"random": RandomAgent}


def _game_agents(game: str) -> dict[str, AgentFactory]:
    return dict(getattr(game_module(game, "agents"), "AGENTS", {}))


def agent_names(game: str) -> list[str]:
    """Every agent name that ``game`` accepts."""
    return sorted({**GENERIC, **_game_agents(game)})


def make_agent(name: str, game: str, *, seed: int = 0, **settings: Any) -> Agent:
    """Build agent ``name`` for ``game``; an unknown name lists the valid ones."""
    factories = {**GENERIC, **_game_agents(game)}
    if name not in factories:
        raise OptionError(f"unknown agent {name!r} for {game}; valid agents: {', '.join(sorted(factories))}")
    return factories[name](seed=seed, **settings)

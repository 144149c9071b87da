"""Agents by name: ``random`` for every game, plus each game's ``AGENTS`` tables (its tiers in
``agents``, arena baselines and test agents in ``baselines``).

A name may carry settings after colons: ``NAME:KEY=VALUE:...``, or a bare ``NAME:VALUE`` for
the agent's ``primary_setting``. Values are read as JSON when they parse (numbers, ``true``,
lists), else kept as text.

>>> split_agent_name("greedy:0.3")
('greedy', {'': 0.3})
>>> split_agent_name("hard:guard=0.5:read_guessers=false")
('hard', {'guard': 0.5, 'read_guessers': False})
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..core.agent import Agent
from ..core.errors import OptionError
from ..core.registry import game_module
from ..i18n import N_
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]
GENERIC: dict[str, AgentFactory] = {"random": RandomAgent}
AGENT_MODULES = ("agents", "baselines")


def _game_agents(game: str) -> dict[str, AgentFactory]:
    table: dict[str, AgentFactory] = {}
    for part in AGENT_MODULES:
        table.update(getattr(game_module(game, part), "AGENTS", {}))
    return table


def agent_names(game: str) -> list[str]:
    """Every agent name that ``game`` accepts."""
    return sorted({**GENERIC, **_game_agents(game)})


def tier_names(game: str) -> list[str]:
    """The tiers a lobby offers, weakest first: ``random``, then the game's own ``agents.AGENTS``
    in their order (arena baselines and test agents stay out)."""
    return [*GENERIC, *getattr(game_module(game, "agents"), "AGENTS", {})]


def _setting_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def split_agent_name(spec: str) -> tuple[str, dict[str, Any]]:
    """``NAME:KEY=VALUE:...`` as the name and its settings (a bare value under the key ``""``)."""
    name, *parts = spec.split(":")
    settings: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep:
            key, value = "", part
        if key in settings:
            twice = N_("agent {spec!r} sets {key} twice") if key else N_("agent {spec!r} sets its main setting twice")
            raise OptionError(twice, spec=spec, key=key)
        settings[key.strip()] = _setting_value(value.strip())
    return name, settings


def make_agent(spec: str, game: str, *, seed: int = 0, **settings: Any) -> Agent:
    """Build agent ``spec`` (a name, optionally with settings) for ``game``.

    An unknown name, or a bad setting written in ``spec``, raises :class:`OptionError`; a bad
    keyword ``settings`` raises ``TypeError`` as any Python call would."""
    name, given = split_agent_name(spec)
    factories = {**GENERIC, **_game_agents(game)}
    if name not in factories:
        raise OptionError(
            N_("unknown agent {name!r} for {game}; valid agents: {agents}"),
            name=name,
            game=game,
            agents=", ".join(sorted(factories)),
        )
    factory = factories[name]
    if "" in given:
        primary = getattr(factory, "primary_setting", None)
        if primary is None:
            raise OptionError(N_("agent {name!r} has no main setting; write {name}:KEY=VALUE"), name=name)
        given[primary] = given.pop("")
    if not given:
        return factory(seed=seed, **settings)
    try:
        return factory(seed=seed, **given, **settings)
    except (TypeError, ValueError) as error:  # settings written in the name are user input
        raise OptionError(N_("agent {spec!r}: {error}"), spec=spec, error=error) from None

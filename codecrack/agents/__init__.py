"""Agents: anything that turns one seat's view into an action.

>>> import codecrack
>>> from codecrack.agents import make_agent
>>> game = codecrack.new_game("coda", players=2, seed=3)
>>> seat = min(game.to_move)
>>> action = make_agent("random", "coda", seed=0).act(game.view(seat))
>>> action in game.legal_actions(seat)
True
"""

from ..core.agent import Agent
from .random_agent import RandomAgent
from .registry import agent_names, make_agent

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent"]

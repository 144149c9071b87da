"""Interactive tutorials: a short scripted game per game, on the real engine.

A game's tutorial is ``TUTORIAL`` in its package's ``tutorial`` module. A
:class:`~codecrack.core.tutorial.Tutorial` is a fixed seed, the game's options and a script: every move of both seats in
order, the learner's moves (seat 0) each with the coach's explanation, and reading steps where the
coach explains the board before the next click. The opponent (seat 1) is a :class:`ScriptedAgent`
that plays its scripted moves and, once the script is over or the game left it, a real AI tier.
The coach's texts are catalogue keys (``learn.tutorial.<game>.<say>`` in the front end's
catalogues); the seed is the server's, never the client's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..agents import Agent, make_agent
from ..agents.registry import tier_names
from ..core.registry import game_part
from ..core.tutorial import LEARNER, Tutorial

__all__ = ["LEARNER", "TUTORIAL_AGENT", "ScriptedAgent", "is_tutorial", "scripted_agent", "tutorial"]

TUTORIAL_AGENT = "tutorial"  # the seat plan's agent name of a tutorial's scripted opponent


class ScriptedAgent(Agent):
    """Plays its seat's scripted moves in order, then (or as soon as a scripted move is not legal,
    because the game left the script) the fallback agent. ``played()`` tells how many actions its
    seat has made at the table, so a restarted server picks the script up where it was."""

    name = TUTORIAL_AGENT

    def __init__(self, moves: list[dict[str, Any]], played: Callable[[], int], fallback: Agent) -> None:
        super().__init__(fallback.seed)
        self.moves = moves
        self.played = played
        self.fallback = fallback

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        done = self.played()
        if done < len(self.moves) and offered(self.moves[done], view["legal_actions"]):
            return self.moves[done]
        return self.fallback.act(view)


def is_tutorial(seats: list[dict[str, Any]]) -> bool:
    """Whether a table's seat plan is a tutorial's (a private table: never listed)."""
    return any(seat.get("agent") == TUTORIAL_AGENT for seat in seats)


def offered(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Whether ``action`` may be played now: it is listed, or it is a code typed freely where a
    code is wanted (``legal_actions`` lists only ``random_code`` there)."""
    return action in legal or (action["type"] == "code" and {"type": "random_code"} in legal)


def tutorial(game: str) -> Tutorial | None:
    """The game's tutorial: ``TUTORIAL`` in its package's ``tutorial`` module, if it has one."""
    found: Tutorial | None = game_part(game, "tutorial", "TUTORIAL")
    return found


def scripted_agent(game: str, seat: int, played: Callable[[], int], seed: int) -> ScriptedAgent:
    """The tutorial opponent of ``game`` at ``seat``."""
    script = tutorial(game)
    moves = script.seat_moves(seat) if script else []
    return ScriptedAgent(moves, played, make_agent(fallback_tier(game), game, seed=seed))


def fallback_tier(game: str) -> str:
    """Who plays the opponent once the script is over: the game's weakest own tier, else random."""
    tiers = tier_names(game)
    return tiers[1] if len(tiers) > 1 else tiers[0]

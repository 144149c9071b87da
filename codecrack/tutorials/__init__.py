"""Interactive tutorials: a short scripted game per game, on the real engine.

A :class:`Tutorial` is a fixed seed, the game's options and a script: every move of both seats in
order, the learner's moves (seat 0) each with the coach's explanation, and reading steps where the
coach explains the board before the next click. The opponent (seat 1) is a :class:`ScriptedAgent`
that plays its scripted moves and, once the script is over or the game left it, a real AI tier.
The coach's texts are catalogue keys (``learn.tutorial.<game>.<say>`` in the front end's
catalogues); the seed is the server's, never the client's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..agents import Agent, make_agent

LEARNER, OPPONENT = 0, 1
TUTORIAL_AGENT = "tutorial"  # the seat plan's agent name of a tutorial's scripted opponent
FALLBACK_TIER = "easy"  # who plays the opponent once the script is over


@dataclass(frozen=True)
class Move:
    """One scripted action; ``say`` is the coach's explanation when the learner makes it."""

    seat: int
    action: dict[str, Any]
    say: str | None = None


@dataclass(frozen=True)
class Read:
    """A reading step: the coach explains the board and waits for "Next"."""

    say: str


@dataclass(frozen=True)
class Tutorial:
    game: str
    seed: int
    options: dict[str, Any]
    script: tuple[Move | Read, ...]

    @property
    def moves(self) -> list[Move]:
        return [step for step in self.script if isinstance(step, Move)]

    def seat_moves(self, seat: int) -> list[dict[str, Any]]:
        return [move.action for move in self.moves if move.seat == seat]

    def lessons(self) -> list[dict[str, Any]]:
        """What the coach shows, in order: ``{"say", "action", "at"}``; ``action`` is null for a
        reading step, and ``at`` is how many actions the table has taken when the lesson is due
        (the scripted moves before it), so the coach explains a move only once it has happened."""
        lessons, at = [], 0
        for step in self.script:
            if isinstance(step, Read) or step.seat == LEARNER:
                lessons.append({"say": step.say, "action": step.action if isinstance(step, Move) else None, "at": at})
            at += isinstance(step, Move)
        return lessons


def you(action: dict[str, Any], say: str) -> Move:
    return Move(LEARNER, action, say)


def them(action: dict[str, Any]) -> Move:
    return Move(OPPONENT, action)


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
    from . import alphacode, coda, coding  # the scripts, loaded on first use

    return {"coda": coda.TUTORIAL, "coding": coding.TUTORIAL, "alphacode": alphacode.TUTORIAL}.get(game)


def scripted_agent(game: str, seat: int, played: Callable[[], int], seed: int) -> ScriptedAgent:
    """The tutorial opponent of ``game`` at ``seat``."""
    script = tutorial(game)
    moves = script.seat_moves(seat) if script else []
    return ScriptedAgent(moves, played, make_agent(FALLBACK_TIER, game, seed=seed))

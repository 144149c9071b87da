"""A tutorial's script: a fixed seed, the game's options, and every move of both seats in order
(the learner's each with the coach's explanation) with reading steps between. A game ships its
tutorial as ``TUTORIAL`` in its package's ``tutorial`` module; :mod:`codecrack.tutorials` plays it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LEARNER, OPPONENT = 0, 1


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
    level: int = 9  # where a newcomer meets this game among those with a tutorial: the lowest first

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

"""Clocks: which seat is on a clock after the latest action, for how long, and what the host sends
when the time is up.

A game with a timed rule declares it once, as ``clock(game, timing)`` in its package's ``clock``
module; every host (the web server, the terminal) asks :func:`clock_for` after each accepted
action. The engines never read the wall clock: the host sends the returned action through
``game.apply``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .game import Game
from .registry import game_part

TIMEOUT = {"type": "timeout"}


class Timing(Protocol):
    """The host's settings for clocks (the web server's config has them)."""

    @property
    def turn_think(self) -> float:
        """A turn's thinking time ..."""

    @property
    def turn_countdown(self) -> float:
        """... then this countdown, then the clock's action."""

    @property
    def answer_window(self) -> float | None:
        """Replaces a game's own answer-window option when set."""


@dataclass(frozen=True)
class Clock:
    """``seat`` must act within ``seconds``; the last ``countdown`` seconds are shown as a countdown."""

    seat: int
    kind: str
    seconds: float
    countdown: float
    action: dict[str, Any]


ClockRule = Callable[[Game, Timing], "Clock | None"]


def clock_for(game: Game, timing: Timing) -> Clock | None:
    """The clock running after the latest action, if any."""
    rule: ClockRule | None = game_part(game.name, "clock", "clock")
    if rule is None or game.over:
        return None
    return rule(game, timing)


def public_view(game: Game) -> dict[str, Any]:
    """What every seat sees (a clock rule reads nothing secret)."""
    return game.view(None, legal_actions=False)

"""The host's clocks: which seat is on a clock now, for how long, and what runs out.

The engines never read the wall clock; the server asks :func:`clock_for` after every accepted
action and, when the time is up, sends the returned action for that seat through ``game.apply``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.game import Game
from .config import WebConfig


@dataclass(frozen=True)
class Clock:
    """``seat`` must act within ``seconds``; the last ``countdown`` seconds are shown as a countdown."""

    seat: int
    kind: str
    seconds: float
    countdown: float
    action: dict[str, Any]


ClockRule = Callable[[Game, WebConfig], "Clock | None"]
TIMEOUT = {"type": "timeout"}
CODA_TIMED_PHASES = ("draw", "guess", "place", "reveal")


def coda_turn_clock(game: Game, config: WebConfig) -> Clock | None:
    """Coda with ``clock=true``: every decision of the current player (draw, each guess, placing
    the drawn tile, an empty-pile reveal) gets 60 s of thinking and then a 20 s countdown. (The
    option is read first: without it, no view is made after each action.)"""
    if not game.options.clock:
        return None
    view = public_view(game)
    if view.get("phase") not in CODA_TIMED_PHASES:
        return None
    return Clock(view["current"], "turn", config.turn_think + config.turn_countdown, config.turn_countdown, TIMEOUT)


def coding_answer_window(game: Game, config: WebConfig) -> Clock | None:
    """The Coding in speed mode: after a slap, the slapper must decode within the answer window;
    when it runs out the host sends ``timeout`` (the rulebook's hesitation foul)."""
    view = public_view(game)
    if view.get("step") != "answer" or view.get("slapper") is None:
        return None
    window = config.answer_window if config.answer_window is not None else float(view["options"]["answer_window"])
    return Clock(view["slapper"], "answer", window, window, TIMEOUT)


CLOCK_RULES: dict[str, ClockRule] = {"coda": coda_turn_clock, "coding": coding_answer_window}


def clock_for(game: Game, config: WebConfig) -> Clock | None:
    """The clock running after the latest action, if any."""
    rule = CLOCK_RULES.get(game.name)
    if rule is None or game.over:
        return None
    return rule(game, config)


def public_view(game: Game) -> dict[str, Any]:
    return game.view(None, legal_actions=False)

"""Coda's turn clock (the ``clock`` option): read by every host through :mod:`codecrack.core.clock`."""

from __future__ import annotations

from ...core.clock import TIMEOUT, Clock, Timing, public_view
from ...core.game import Game

TIMED_PHASES = ("draw", "guess", "place", "reveal")


def clock(game: Game, timing: Timing) -> Clock | None:
    """With ``clock=true``, every decision of the current player (draw, each guess, placing the
    drawn tile, an empty-pile reveal) gets the turn's thinking time and then a countdown. (The
    option is read first: without it, no view is made after each action.)"""
    if not getattr(game.options, "clock", False):
        return None
    view = public_view(game)
    if view.get("phase") not in TIMED_PHASES:
        return None
    return Clock(view["current"], "turn", timing.turn_think + timing.turn_countdown, timing.turn_countdown, TIMEOUT)

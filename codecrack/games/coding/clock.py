"""The Coding's answer window: read by every host through :mod:`codecrack.core.clock`."""

from __future__ import annotations

from ...core.clock import TIMEOUT, Clock, Timing, public_view
from ...core.game import Game


def clock(game: Game, timing: Timing) -> Clock | None:
    """Speed mode: after a slap, the slapper must decode within the answer window (the table's
    option, unless the host's ``answer_window`` replaces it); when it runs out the host sends
    ``timeout`` (the rulebook's hesitation foul)."""
    view = public_view(game)
    if view.get("step") != "answer" or view.get("slapper") is None:
        return None
    window = timing.answer_window if timing.answer_window is not None else float(view["options"]["answer_window"])
    return Clock(view["slapper"], "answer", window, window, TIMEOUT)

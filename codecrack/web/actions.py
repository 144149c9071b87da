"""Actions only the server sends: a clock's ``timeout`` (docs/engine.md: clocks belong to the host).

A player's view never offers them, and an action of one of these types from a client is refused.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from .refusals import Refusal, Refused

SERVER_ACTIONS = frozenset({"timeout"})


def player_view(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` without the server's own actions among its legal actions."""
    legal = view.get("legal_actions")
    if not legal or SERVER_ACTIONS.isdisjoint(map(dict.get, legal, repeat("type"))):  # the usual case: the
        return view  # view as it is (its types read in C: Coda's mover has hundreds of guesses)
    return {**view, "legal_actions": [action for action in legal if action.get("type") not in SERVER_ACTIONS]}


def refused_from_client(action: Any) -> Refused | None:
    """Why a client may not send ``action``, or ``None`` when the game itself is to judge it."""
    kind = action.get("type") if isinstance(action, dict) else None
    return Refused(Refusal.SERVER_ACTION, action_type=kind) if kind in SERVER_ACTIONS else None

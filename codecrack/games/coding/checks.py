"""Shape checks for actions: each raises IllegalAction naming the problem."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...core.game import Action


def check_fields(action: Action, *required: str) -> None:
    """Raise :class:`IllegalAction` unless ``action`` has exactly ``type`` and ``required``."""
    missing = [key for key in required if key not in action]
    if missing:
        raise IllegalAction(f"{action['type']!r} needs {', '.join(repr(k) for k in missing)}")
    extra = sorted(set(action) - {"type", *required})
    if extra:
        raise IllegalAction(f"{action['type']!r} takes no {', '.join(repr(k) for k in extra)}")


def check_seat_number(value: Any, players: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise IllegalAction(f"{what} must be a seat from 0 to {players - 1}, not {value!r}")
    return value

"""Shape checks for actions: each raises IllegalAction naming the problem."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...core.game import Action
from ...i18n import N_


def check_fields(action: Action, *required: str) -> None:
    """Raise :class:`IllegalAction` unless ``action`` has exactly ``type`` and ``required``."""
    missing = [key for key in required if key not in action]
    if missing:
        raise IllegalAction(N_("{kind!r} needs {keys}"), kind=action["type"], keys=", ".join(map(repr, missing)))
    extra = sorted(set(action) - {"type", *required})
    if extra:
        raise IllegalAction(N_("{kind!r} takes no {keys}"), kind=action["type"], keys=", ".join(map(repr, extra)))


SEAT_KEY = N_("{key!r} must be a seat from 0 to {last}, not {value!r}")


def check_seat_number(value: Any, players: int, key: str, template: str = SEAT_KEY) -> int:
    """``value`` if it is a seat; else :class:`IllegalAction` of ``template`` (``{key}``, ``{last}``, ``{value}``)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise IllegalAction(template, key=key, last=players - 1, value=value)
    return value

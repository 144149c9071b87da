"""Checks of a seat named in an action: each raises IllegalAction naming the problem."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...i18n import N_

SEAT_KEY = N_("{key!r} must be a seat from 0 to {last}, not {value!r}")


def check_seat_number(value: Any, players: int, key: str, template: str = SEAT_KEY) -> int:
    """``value`` if it is a seat; else :class:`IllegalAction` of ``template`` (``{key}``, ``{last}``, ``{value}``)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise IllegalAction(template, key=key, last=players - 1, value=value)
    return value

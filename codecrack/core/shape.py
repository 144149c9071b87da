"""The one check of an action's shape: exactly ``type`` and its kind's keys, before any rule.

>>> check_keys({"type": "guess", "index": 1}, "index")
>>> check_keys({"type": "guess"}, "index", "value")
Traceback (most recent call last):
codecrack.core.errors.MalformedAction: 'guess' needs 'index', 'value'
>>> check_keys({"type": "stop", "x": 1})
Traceback (most recent call last):
codecrack.core.errors.MalformedAction: 'stop' takes no 'x'
"""

from __future__ import annotations

from ..i18n import N_
from .errors import MalformedAction
from .game import Action


def check_keys(action: Action, *keys: str) -> None:
    """Raise :class:`MalformedAction` naming the keys missing, else those not in ``type`` and ``keys``."""
    missing = [key for key in keys if key not in action]
    if missing:
        raise MalformedAction(N_("{kind!r} needs {keys}"), kind=action["type"], keys=", ".join(map(repr, missing)))
    extra = sorted(set(action) - {"type", *keys}, key=str)
    if extra:
        raise MalformedAction(N_("{kind!r} takes no {keys}"), kind=action["type"], keys=", ".join(map(repr, extra)))

"""Read-only dicts and lists: parts of a game's state that its views share instead of copying.

A game keeps what never changes once written (its history's events) as frozen data, built once
when it happens; every view then holds those very objects, so a view costs a list of references
rather than a copy of the whole history, and the web layer's diff of two views finds the shared
part by identity. They are equal to the plain dicts and lists they hold (``==``, JSON, pickle),
so views compare and encode as before; changing one raises :class:`TypeError`, so no caller
changes the game, or another seat's view, through its own view. Copying one (``dict(event)``,
``event.copy()``, ``list(items)``) gives plain data to change freely.

>>> event = frozen({"type": "deal", "colors": ["black", "white"]})
>>> event == {"type": "deal", "colors": ["black", "white"]}
True
>>> event["colors"].append("black")
Traceback (most recent call last):
TypeError: a game's shared data is read-only: copy it (dict(...), list(...)) to change it
"""

from __future__ import annotations

from typing import Any, NoReturn

ATOMS = frozenset({str, int, float, bool, type(None)})  # what is never copied
READ_ONLY = "a game's shared data is read-only: copy it (dict(...), list(...)) to change it"


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(READ_ONLY)


class FrozenDict(dict[Any, Any]):
    """A dict that refuses every change."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type, tuple[dict[Any, Any]]]:
        return FrozenDict, (dict(self),)


class FrozenList(list[Any]):
    """A list that refuses every change."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type, tuple[list[Any]]]:
        return FrozenList, (list(self),)


def frozen(data: Any) -> Any:
    """``data`` (JSON-like data) with every dict and list in it frozen: new objects, except the
    frozen ones already there (only this function makes them, so what they hold is frozen too)."""
    if type(data) in ATOMS or isinstance(data, (FrozenDict, FrozenList)):
        return data
    if isinstance(data, dict):
        copy = FrozenDict(data)
        for key, value in data.items():
            if type(value) not in ATOMS:
                dict.__setitem__(copy, key, frozen(value))
        return copy
    if isinstance(data, list):
        return FrozenList([frozen(item) for item in data])
    if isinstance(data, tuple):
        return tuple(frozen(item) for item in data)
    return data

"""State deltas: what changed in one audience's view from one step to a later one.

After an action, each connection gets a ``delta`` message instead of its whole view: the changes
that turn the view it was sent last (its ``base`` step) into the view at the new ``step``. A
delta is derived only from the two views of one audience (a seat, or the spectators), so what it
holds and how long it is depend only on what that audience may know.

A change is a JSON list whose first item names it; a path is a list of keys and list indices:

- ``["set", path, value]``: put ``value`` at ``path`` (a new key, a changed value, a whole list);
- ``["del", path]``: remove the key at ``path``;
- ``["add", path, items]``: append ``items`` to the list at ``path`` (a history's new events), so
  a list that only grows costs its new items, not its whole length.

The front end's ``static/js/deltas.js`` applies them the same way as :func:`apply`.

>>> old = {"step": 1, "history": [{"type": "draw"}], "rows": [[1, 2], [3]], "gone": 0}
>>> new = {"step": 2, "history": [{"type": "draw"}, {"type": "guess"}], "rows": [[1, 5], [3]]}
>>> changes = diff(old, new)
>>> changes
[['set', ['step'], 2], ['add', ['history'], [{'type': 'guess'}]], ['set', ['rows', 0, 1], 5], ['del', ['gone']]]
>>> apply(old, changes) == new
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Json = Any
Path = list[str | int]
Change = list[Any]
Seat = int | None
_ABSENT = object()  # a key missing from a dict (None is a value)


def diff(old: Json, new: Json) -> list[Change]:
    """The changes that turn ``old`` into ``new`` (both plain JSON data: dicts, lists, scalars)."""
    changes: list[Change] = []
    _diff(old, new, [], changes)
    return changes


def _diff(old: Json, new: Json, path: Path, changes: list[Change]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dicts(old, new, path, changes)
    elif isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)):
        _diff_lists(old, new, path, changes)
    elif not same(old, new):
        changes.append(["set", path, new])


def _diff_dicts(old: dict[str, Json], new: dict[str, Json], path: Path, changes: list[Change]) -> None:
    """:func:`same` inlined for the usual case (a shared part, or two values of one type), and the
    old keys looked through for deleted ones only when some of them were not found among the new."""
    kept = 0  # old keys found among the new ones
    for key, value in new.items():
        was = old.get(key, _ABSENT)
        if was is value:
            kept += 1
            continue
        if was is _ABSENT:
            changes.append(["set", [*path, key], value])
            continue
        kept += 1
        if type(was) is type(value) and was == value or type(was) is not type(value) and same(was, value):
            continue
        _diff(was, value, [*path, key], changes)
    if kept < len(old):
        changes.extend(["del", [*path, key]] for key in old if key not in new)


def _diff_lists(old: Sequence[Json], new: Sequence[Json], path: Path, changes: list[Change]) -> None:
    """A list that kept its items and grew is an append (one comparison of the old part, in C); a
    list of the same length with few changed items changes those items; anything else is set."""
    kept = len(old)
    if len(new) > kept and same(new[:kept], old):
        changes.append(["add", path, list(new[kept:])])
        return
    if len(new) == kept:
        changed = [
            index
            for index, (was, now) in enumerate(zip(old, new))
            if was is not now and (type(was) is not type(now) or was != now)
        ]
        if 2 * len(changed) <= kept:
            for index in changed:
                _diff(old[index], new[index], [*path, index], changes)
            return
    changes.append(["set", path, new])


def same(old: Json, new: Json) -> bool:
    """Equal as data: Python's ``==`` (in C) between values of one type; a list and a tuple with
    equal items are alike, and values of other different types differ (so ``1``, ``1.0`` and
    ``True``, equal in Python but not in JSON, differ). Inside a list or a dict that last
    difference is not looked for; no game's view changes a value only so
    (``tests/web/test_deltas.py`` compares the JSON texts)."""
    if old is new:  # a part two views share (docs/engine.md, "Views share")
        return True
    if type(old) is type(new):
        return old == new
    return isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)) and list(old) == list(new)


def apply(view: Json, changes: list[Change]) -> Json:
    """``view`` with ``changes`` made, as a new value: the parts of ``view`` on a changed path are
    copied, so ``view`` itself stays as it was (the other parts are shared)."""
    for change in changes:
        view = _apply_one(view, change[0], change[1], change[2] if len(change) > 2 else None)
    return view


def _apply_one(data: Json, kind: str, path: Path, value: Json) -> Json:
    if not path:
        if kind == "set":
            return value
        if kind == "add":
            return [*data, *value]
        raise ValueError(f"cannot {kind} the whole view")
    head, rest = path[0], path[1:]
    copy: Json = dict(data) if isinstance(data, dict) else list(data)  # keyed by the path's str, or int
    if kind == "del" and not rest:
        del copy[head]
    elif kind == "set" and not rest and isinstance(copy, dict):
        copy[head] = value
    else:
        copy[head] = _apply_one(copy[head], kind, rest, value)
    return copy


def followed(view: Json, step: int, message: dict[str, Json]) -> tuple[int, Json]:
    """The step and the view after a ``state`` or ``delta`` message, for a client that held
    ``view`` at ``step``; :class:`ValueError` when a delta's base is another step (the client
    then asks for a whole view: ``{"type": "resync"}``)."""
    if message["type"] == "state":
        return message["step"], message["view"]
    if message["base"] != step or view is None:
        raise ValueError(f"a delta from step {message['base']} does not fit the view at step {step}")
    return message["step"], apply(view, message["changes"])


class SentViews:
    """The view each audience (a seat, or ``None`` for the spectators) of one table was sent last,
    and at which step: the base of that audience's next delta. ``view_of(seat)``, given with each
    call (kept, a table's bound method would make the table a reference cycle), makes a view."""

    def __init__(self) -> None:
        self.latest: dict[Seat, tuple[int, dict[str, Json]]] = {}

    def current(self, seat: Seat, step: int, view_of: Callable[[Seat], dict[str, Json]]) -> dict[str, Json]:
        """The audience's view at ``step`` (the live game's), made once and kept as its next base."""
        sent = self.latest.get(seat)
        if sent is None or sent[0] != step:
            sent = self.latest[seat] = (step, view_of(seat))
        return sent[1]

    def changes(
        self, seat: Seat, step: int, view_of: Callable[[Seat], dict[str, Json]]
    ) -> tuple[int, list[Change]] | None:
        """The base step and the changes from the audience's last view to its view at ``step``;
        ``None`` when it was sent no view yet (it then needs a whole one)."""
        sent = self.latest.get(seat)
        if sent is None:
            return None
        return sent[0], diff(sent[1], self.current(seat, step, view_of))

    def forget(self) -> None:
        """Forget every audience's view (each gets a whole view next)."""
        self.latest.clear()

    def keep_only(self, seats: set[Seat]) -> None:
        """Forget the views of audiences with no connection left (they get a whole view on connect)."""
        for seat in [seat for seat in self.latest if seat not in seats]:
            del self.latest[seat]

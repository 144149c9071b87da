"""A least-recently-used cache bounded by bytes, safe to share between threads.

Big values (a solver's table of every legal code) are built once per key, outside the cache's
lock: two threads asking for the same key wait for one build, different keys build side by side.
A value bigger than the whole budget is returned without being kept.

>>> cache = ByteLRU(budget=10)
>>> cache.get("a", lambda: "aaaa", len), cache.get("b", lambda: "bbbbbb", len)
('aaaa', 'bbbbbb')
>>> cache.get("c", lambda: "cc", len), sorted(cache.keys()), cache.held
('cc', ['b', 'c'], 8)
>>> cache.get("big", lambda: "x" * 11, len), cache.held
('xxxxxxxxxxx', 8)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class ByteLRU:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self._values: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[Hashable, threading.Lock] = {}

    def keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._values)

    def get(self, key: Hashable, build: Callable[[], Any], size: Callable[[Any], int]) -> Any:
        """The value kept under ``key``, else ``build()``, kept if ``size(value)`` fits the budget
        (the least recently used values go to make room)."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key][0]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                if key in self._values:
                    return self._values[key][0]
            value = build()
            self._keep(key, value, size(value))
        with self._lock:
            self._building.pop(key, None)
        return value

    def _keep(self, key: Hashable, value: Any, nbytes: int) -> None:
        with self._lock:
            if nbytes > self.budget:
                return
            while self._values and self.held + nbytes > self.budget:
                _, (_, freed) = self._values.popitem(last=False)
                self.held -= freed
            self._values[key] = (value, nbytes)
            self.held += nbytes

    def resize(self, budget: int) -> None:
        """A new budget; the least recently used values go until the rest fit."""
        with self._lock:
            self.budget = budget
            while self._values and self.held > budget:
                _, (_, freed) = self._values.popitem(last=False)
                self.held -= freed

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self.held = 0


# The big tables games' AIs keep between moves (Alphabet Code's legal codes and the solver's spaces
# on them); a host sets its own budget with ``WORK_CACHE.resize``.
WORK_CACHE = ByteLRU(256 * 2**20)

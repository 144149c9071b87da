"""Detached copies of view and event data, so that no caller can reach a game's state."""

from __future__ import annotations

import pickle
from typing import TypeVar

T = TypeVar("T")


def detached(data: T) -> T:
    """A deep copy of plain data (pickle round trip: faster than ``copy.deepcopy`` or JSON).

    >>> inner = [1, 2]
    >>> copy = detached({"a": inner})
    >>> copy["a"].append(3); inner
    [1, 2]
    """
    copy: T = pickle.loads(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
    return copy

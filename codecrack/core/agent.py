"""The agent interface: an agent sees only ``view(seat)`` and returns one legal action."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any


class Agent(ABC):
    """A player. ``act`` receives the seat's view (its ``legal_actions`` included) and nothing else.

    ``reaction_delay`` is in seconds: hosts of real-time phases let faster agents act first and
    wait this long before a bot's action lands, so that humans can compete.
    """

    name: str = "agent"
    reaction_delay: float = 0.0

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        """Choose one of ``view["legal_actions"]`` (or an equivalent action)."""


@dataclass(frozen=True)
class MoveCost:
    """What one move of a game's agents may cost, declared by the game for ``codecrack bench move-cost``.

    ``read``: the options its agents' work depends on, each with every value a client may choose;
    ``unread``: the other options a client may choose, each with why no move depends on it;
    ``dearest``: the dearest ``hard`` move measured over every set of ``read``, (peak MB, CPU seconds).
    """

    read: dict[str, tuple[Any, ...]]
    unread: dict[str, str]
    dearest: tuple[float, float]

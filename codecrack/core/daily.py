"""A game's daily challenge: ``games/GAME/daily.py`` holds ``DAILY``, found through
:func:`codecrack.core.registry.game_part`, and ``games/GAME/web/daily.js`` draws it in the browser.
The host (``codecrack.web.daily_routes``) keeps the server's secret, the attempts, the streaks and
the day's scores; the game says what a puzzle is.

Two kinds, one puzzle a UTC day for everyone, numbered from the server's secret:

- :class:`SoloDaily`: an attempt of several actions (the daily Alphabet Code), with practice puzzles;
- :class:`DecisionDaily`: one position and one answer, scored by its exact chance against the best
  answer's (the daily Coda and Coding puzzles).

>>> from datetime import date
>>> number_of_day(b"secret", date(2026, 12, 3), "example", 10) == number_of_day(b"secret", date(2026, 12, 3), "example", 10)
True
"""

from __future__ import annotations

import hashlib
import hmac
from abc import ABC, abstractmethod
from datetime import date
from typing import Any, Protocol

from .registry import game_part


def number_of_day(secret: bytes, day: date, label: str, count: int) -> int:
    """A number below ``count`` for ``day`` under ``secret`` (an HMAC: nobody computes tomorrow's
    without the secret); ``label`` keeps the numbers of different puzzles apart."""
    digest = hmac.new(secret, f"{label}:{day.isoformat()}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % count


class Attempt(Protocol):
    """One attempt at a solo puzzle, rebuilt from its moves."""

    @property
    def over(self) -> bool: ...

    @property
    def solved(self) -> bool: ...

    @property
    def score(self) -> int: ...

    def play(self, action: Any) -> dict[str, Any]:
        """Apply an action: the event, or :class:`~codecrack.core.errors.IllegalAction`."""
        ...

    def view(self) -> dict[str, Any]:
        """The attempt as the game's board draws it: nothing of the answer before it is over."""
        ...


class SoloDaily(ABC):
    """A puzzle solved in several actions; the score counts them (fewer is better)."""

    @abstractmethod
    def of_day(self, secret: bytes, day: date) -> int:
        """The number of ``day``'s puzzle."""

    @abstractmethod
    def practice(self) -> int:
        """The number of a new practice puzzle, at random."""

    @abstractmethod
    def attempt(self, number: int, moves: list[dict[str, Any]]) -> Attempt:
        """Puzzle ``number`` after ``moves``."""

    @abstractmethod
    def par(self, number: int) -> int:
        """The score the game's strongest AI makes on puzzle ``number`` (the host keeps a day's)."""

    @abstractmethod
    def result(self, attempt: Attempt, day: date | None, par: int) -> dict[str, Any]:
        """What an attempt over shows (the host adds the day's scores): the answer, the par and a
        text to share that spoils nothing. ``day`` is ``None`` for practice."""


class DecisionDaily(ABC):
    """One position, one answer a day: the score is 100 x the answer's exact chance of being right
    over the best answer's, from the seat's own view."""

    @abstractmethod
    def of_day(self, secret: bytes, day: date) -> int:
        """The number of ``day``'s puzzle."""

    @abstractmethod
    def puzzle(self, number: int) -> dict[str, Any]:
        """What is shown before the answer: ``{"grade", "view"}`` (the seat's own view, nothing more)."""

    @abstractmethod
    def chances(self, number: int, guess: dict[str, Any]) -> tuple[float, float]:
        """The chance that ``guess`` is right and the best answer's; a guess the seat cannot make
        raises :class:`~codecrack.core.errors.IllegalAction`."""

    @abstractmethod
    def answer(self, number: int, guess: dict[str, Any], day: date, score: int, solved: bool) -> dict[str, Any]:
        """What is shown once answered: the odds, the best answer and a text to share that spoils nothing."""


def daily_of(game: str) -> SoloDaily | DecisionDaily | None:
    """``game``'s daily challenge, if it has one."""
    found = game_part(game, "daily", "DAILY")
    return found if isinstance(found, SoloDaily | DecisionDaily) else None

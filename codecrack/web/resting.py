"""An idle table lets go of its game and plays its record again when next needed.

A live game holds kilobytes (Alphabet Code's or Coda's 5-8 KB when new, 15-50 KB in mid-game,
its seeded ``random.Random`` 2.5 KB of them); its record, the actions taken, is a few hundred
bytes. When a table's last views are let go (``views_kept_seconds`` after the last one sent:
:mod:`.audiences`) and no action is under way, :meth:`Resting.rest` keeps the record (as JSON) and
the few facts read without playing (over, result, the awaited seats, the options), and drops the
game and its twin (the record as text: the bytes orjson returns keep the 4 KB buffer they were
written in). The next use plays the record again (:func:`~codecrack.core.registry.replay`):
every chance comes from the seed, so the game is the same, state for state (its views, its record,
its chance log and its generator: tests/web/test_resting.py); an action or a join first does so
off the event loop (:meth:`Resting.awake`) when the record is long; any other use does it at once.
A woken table rests again ``views_kept_seconds`` after it was woken or last sent a view.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from ..core.registry import replay
from .table_parts import TablePart

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.options import GameOptions

REPLAYED_AT_ONCE = 4  # a record of at most this many actions is played again on the event loop, not in a thread
_AWAITED: dict[frozenset[int], frozenset[int]] = {}  # the sets of awaited seats, one object per set


@dataclass(frozen=True, slots=True)
class Rest:
    """What a resting table keeps of its game: its record (JSON) and what is read without playing it."""

    record: str  # not orjson's bytes: they keep the 4 KB buffer they were written in
    over: bool
    result: dict[str, Any] | None
    awaited: frozenset[int]
    options: GameOptions


def played_again(record: str) -> Game:
    return replay(orjson.loads(record))


class Resting(TablePart):
    """The resting part of :class:`~codecrack.web.table.LiveTable`: its ``game``, held or kept as a
    record."""

    @property
    def game(self) -> Game:
        """The live game (played again from the record if the table rests)."""
        held = self.held
        if held is None:
            rest = self.resting
            assert rest is not None, "a table holds its game or rests"
            held = self._woken(played_again(rest.record))
        return held

    @game.setter
    def game(self, game: Game) -> None:
        self.held, self.resting = game, None

    @property
    def game_options(self) -> GameOptions:
        """The game's options (read without waking a resting table)."""
        return self.resting.options if self.resting is not None else self.game.options

    @property
    def game_over(self) -> bool:
        return self.resting.over if self.resting is not None else self.game.over

    @property
    def game_result(self) -> dict[str, Any] | None:
        return self.resting.result if self.resting is not None else self.game.result

    @property
    def game_awaited(self) -> frozenset[int]:
        return self.resting.awaited if self.resting is not None else self.game.awaited

    def rest(self) -> bool:
        """Let go of the game and its twin, keeping its record; not while an action is under way
        (its caller holds the lock and the twin). Whether the table rests now."""
        if self.resting is not None:
            return True
        if self.lock.locked() or self.held is None:
            return False
        game = self.held
        awaited = game.awaited
        self.resting = Rest(
            orjson.dumps(game.record()).decode(),
            game.over,
            game.result,
            _AWAITED.setdefault(awaited, awaited),
            game.options,
        )
        self.held = self.ahead = None
        return True

    async def awake(self) -> None:
        """Hold the game again if the table rests: a long record is played off the event loop."""
        rest = self.resting
        if rest is None:
            return
        if self.step <= REPLAYED_AT_ONCE:
            self._woken(played_again(rest.record))
            return
        game = await asyncio.to_thread(played_again, rest.record)
        if self.resting is rest:  # nothing woke it meanwhile (else that copy stays: they are the same game)
            self._woken(game)

    def _woken(self, game: Game) -> Game:
        self.held, self.resting = game, None
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return game
        self._keep_views()  # rest again views_kept_seconds from now, if nothing uses it
        return game

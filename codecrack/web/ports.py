"""What a live table is given, rather than reaching up for: its journal and its events.

- :class:`Journal`: the table's steps, appended one at a time and read back from a step on.
  :class:`SqlJournal` is the server's (the writer and the store); :class:`MemoryJournal` keeps
  them in a dict, for tests.
- :class:`TableEvents`: what a table tells whoever composed it (the hub): a step committed,
  who is connected changed, the game ended; and the two things it asks of it: drive a bot's
  seat, and read who is connected on other instances before a takeover.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.exc import IntegrityError

from .store import Store, add_move, forfeit_table, set_turn
from .writer import Writer

if TYPE_CHECKING:
    from .table import LiveTable

log = logging.getLogger("codecrack.web")


class StepTaken(Exception):
    """Another writer (another instance) stored this step first."""


class Journal(Protocol):
    async def append(self, code: str, step: int, seat: int, action: Any, result: dict[str, Any] | None) -> None:
        """Store ``seat``'s ``action`` as step ``step`` (with the result when it ends the game),
        once committed; :class:`StepTaken` if that step is stored already."""

    async def since(self, code: str, step: int = 0) -> list[list[Any]]:
        """The ``[seat, action]`` moves stored past ``step`` actions."""

    async def set_turn(
        self, code: str, step: int, deadline: datetime | None, seats: list[int], lapsed: list[int]
    ) -> None:
        """Store a turn-based table's deadline: ``seats`` must move by ``deadline`` at ``step``; the
        takeover AI plays the ``lapsed`` seats."""

    async def forfeit(self, code: str, result: dict[str, Any]) -> None:
        """Store that the table ended with the forfeit ``result`` (no step ends it)."""


class SqlJournal:
    """The steps in the database: appended through the writer (batched with other tables'), read
    from the store in a thread."""

    def __init__(self, writer: Writer, store: Store) -> None:
        self.writer, self.store = writer, store

    async def append(self, code: str, step: int, seat: int, action: Any, result: dict[str, Any] | None) -> None:
        try:
            await self.writer.write(add_move, code, step, seat, action, result)
        except IntegrityError as error:  # the unique (table, step): the first writer of a step wins
            raise StepTaken(code, step) from error

    async def since(self, code: str, step: int = 0) -> list[list[Any]]:
        return await asyncio.to_thread(self.store.moves, code, step)

    async def set_turn(
        self, code: str, step: int, deadline: datetime | None, seats: list[int], lapsed: list[int]
    ) -> None:
        await self.writer.write(set_turn, code, step, deadline, seats, lapsed)

    async def forfeit(self, code: str, result: dict[str, Any]) -> None:
        await self.writer.write(forfeit_table, code, result)


@dataclass
class MemoryJournal:
    """Steps kept in memory (tests): ``moves[code]`` is the table's list of ``[seat, action]``."""

    moves: dict[str, list[list[Any]]] = field(default_factory=dict)
    results: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    turns: dict[str, tuple[int, datetime | None, list[int], list[int]]] = field(default_factory=dict)

    async def append(self, code: str, step: int, seat: int, action: Any, result: dict[str, Any] | None) -> None:
        stored = self.moves.setdefault(code, [])
        if step != len(stored):
            raise StepTaken(code, step)
        stored.append([seat, action])
        self.results[code] = result

    async def since(self, code: str, step: int = 0) -> list[list[Any]]:
        return [list(move) for move in self.moves.get(code, [])[step:]]

    async def set_turn(
        self, code: str, step: int, deadline: datetime | None, seats: list[int], lapsed: list[int]
    ) -> None:
        self.turns[code] = (step, deadline, seats, lapsed)

    async def forfeit(self, code: str, result: dict[str, Any]) -> None:
        self.results[code] = result


async def no_bot(table: LiveTable, seat: int) -> None:
    """A driver that plays no bot (tests that drive every seat themselves)."""


async def nobody_elsewhere(tables: list[LiveTable]) -> None:
    """One instance: nobody is connected anywhere else."""


@dataclass
class TableEvents:
    """The hooks a table calls, one set shared by every table of a hub. Add a listener with
    ``events.on_committed.append(fn)``: ``fn(table, seat, action)`` after each committed step;
    ``on_presence_changed``: ``fn(table)`` when a seat's connection came or went here;
    ``on_ended``: ``fn(table)`` once its game is over. Listeners run on the event loop and must
    not wait: start a task for slow work.

    ``drive(table, seat)``: the coroutine that plays a bot's seat (woken when the game awaits
    it); ``check_presence(tables)``: read which seats are connected on other instances."""

    drive: Callable[[LiveTable, int], Coroutine[Any, Any, None]] = no_bot
    check_presence: Callable[[list[LiveTable]], Awaitable[None]] = nobody_elsewhere
    on_committed: list[Callable[[LiveTable, int, Any], None]] = field(default_factory=list)
    on_presence_changed: list[Callable[[LiveTable], None]] = field(default_factory=list)
    on_ended: list[Callable[[LiveTable], None]] = field(default_factory=list)

    def committed(self, table: LiveTable, seat: int, action: Any) -> None:
        tell(self.on_committed, table, seat, action)

    def presence_changed(self, table: LiveTable) -> None:
        tell(self.on_presence_changed, table)

    def ended(self, table: LiveTable) -> None:
        tell(self.on_ended, table)


def tell(listeners: list[Callable[..., None]], *args: Any) -> None:
    """Call each listener; one that fails is logged and the others still run (the step stays committed)."""
    for listener in listeners:
        try:
            listener(*args)
        except Exception:
            log.exception("a table event listener failed: %r", listener)

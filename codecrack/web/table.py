"""One live table: the game, who sits where, the open connections, the bots and the clock.

A :class:`LiveTable` is given its ports (a journal, the events, the settings) and never reaches
up to whoever owns it. Its jobs live in one module each, joined here (each a mixin on
:class:`~codecrack.web.table_parts.TablePart`, which declares the state they share):

- :mod:`.seats`: seats and presence;
- :mod:`.audiences`: each audience's view and the broadcasts;
- :mod:`.pipeline`: the action pipeline and its recovery paths;
- :mod:`.driving`: the driver of bots, and whether this instance drives the table;
- :mod:`.timers`: the clock and the takeovers of absent players;
- :mod:`.turns`: a turn-based table's deadline per move;
- :mod:`.resting`: an idle table's game let go and played again from its record.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game
from ..protocol.deltas import SentViews
from .audiences import Audiences
from .config import WebConfig
from .connections import Connection
from .driving import Driving
from .pipeline import ActionPipeline
from .ports import Journal, TableEvents
from .resting import Resting
from .seats import Seating
from .store import TableRow
from .timers import ClocksAndTakeovers, RunningClock
from .turns import TurnDeadlines


@dataclass(eq=False)
class LiveTable(Seating, Audiences, ActionPipeline, Driving, ClocksAndTakeovers, TurnDeadlines, Resting):
    """A table being played or watched."""

    row: TableRow
    game: Game = field()  # no default: dataclass deletes this Field, so Resting.game (a property) sets and gets it
    tokens: dict[str, tuple[int, str]]
    journal: Journal
    events: TableEvents
    config: WebConfig
    step: int = 0
    ahead: Game | None = None
    connections: set[Connection] = field(default_factory=set)
    taken_over: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clock: RunningClock | None = None
    tasks: dict[Any, asyncio.Task] = field(default_factory=dict)
    announced_at: float = float("-inf")
    loaded_at: float = field(default_factory=time.monotonic)
    joined: bool = False  # someone connected since it was loaded (else it expires: Hub.expire_unjoined)
    driving: bool = True
    elsewhere: set[int] = field(default_factory=set)
    sent: SentViews = field(default_factory=SentViews)
    views_sent_at: float = float("-inf")
    views_timer: asyncio.TimerHandle | None = None
    origin: str | None = None  # the address of the client that made it, when this instance knows it
    anonymous: bool = False  # known here that every seat was taken with no player's session: none to notify or rate

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def owner(self) -> tuple[str, str]:
        """Whose AI work this is (:class:`~codecrack.web.work.FairPool`): its client's, and its own."""
        return (self.origin or self.code, self.code)

    # -- background tasks ---------------------------------------------------------------
    def start(self, key: Any, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task:
        self.cancel(key)
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks[key] = task
        task.add_done_callback(lambda done: self.tasks.pop(key, None) if self.tasks.get(key) is done else None)
        return task

    def running(self, key: Any) -> bool:
        return key in self.tasks and not self.tasks[key].done()

    def cancel(self, key: Any) -> None:
        task = self.tasks.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def close(self) -> None:
        """Stop every task (the hub unloaded the table, or stops). A submission under way still
        commits and the game follows it (see :meth:`submit`), but it wakes no bot, clock or
        takeover: the table drives nothing more (a connection that finds it unloaded loads a new
        copy: ``Hub.hold``)."""
        self.stop_driving()
        self.cancel("info")
        self.forget_views()

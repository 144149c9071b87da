"""What every part of a live table shares, declared once.

:class:`~codecrack.web.table.LiveTable` is joined from one mixin per job (:mod:`.seats`,
:mod:`.audiences`, :mod:`.pipeline`, :mod:`.driving`, :mod:`.timers`, :mod:`.turns`), each on
:class:`TablePart`: the state the table holds (its dataclass fields) and the methods one part
calls in another are declared here, so that each part is checked on its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.options import GameOptions
    from ..protocol.deltas import SentViews
    from . import messages
    from .config import WebConfig
    from .connections import Ack, Connection
    from .ports import Journal, TableEvents
    from .refusals import Refused
    from .resting import Rest
    from .store import TableRow
    from .table import LiveTable
    from .timers import RunningClock


class TablePart:
    """The state and the methods the parts of a :class:`~codecrack.web.table.LiveTable` share."""

    row: TableRow
    game: Game
    tokens: dict[str, tuple[int, str]]  # token -> (seat, name)
    journal: Journal
    events: TableEvents
    config: WebConfig
    step: int  # accepted actions so far
    ahead: Game | None  # the live game's twin that actions are tried on (pipeline.twin)
    held: Game | None  # the live game, unless the table rests (resting.py: then its record is kept)
    resting: Rest | None  # what a resting table keeps of its game (resting.py)
    connections: set[Connection]
    taken_over: set[int]  # absent humans' seats played by the takeover AI
    lock: asyncio.Lock
    clock: RunningClock | None
    tasks: dict[Any, asyncio.Task[Any]]
    announced_at: float  # when the table's summary was last sent to everyone
    joined: bool
    driving: bool  # this instance runs the bots, clock and takeovers (with several: it holds the lease)
    elsewhere: set[int]  # seats connected on other instances (cluster.py)
    sent: SentViews  # each audience's last view: the base of its next delta
    views_sent_at: float  # when a view was last sent (loop time)
    views_timer: asyncio.TimerHandle | None  # forgets the views views_kept_seconds after the last one sent

    @property
    def whole(self) -> LiveTable:
        """The table this is a part of, for what takes a table (the events' listeners, the summary)."""
        return cast("LiveTable", self)

    if TYPE_CHECKING:  # what one part calls in another (table.py, then each part)

        @property
        def code(self) -> str: ...
        def start(self, key: Any, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...
        def running(self, key: Any) -> bool: ...
        def cancel(self, key: Any) -> None: ...
        def bot_tier(self, seat: int) -> str | None: ...
        def connected(self, seat: int) -> bool: ...
        def claimed(self, seat: int) -> bool: ...
        def names(self) -> dict[int, str]: ...
        def summary(self) -> dict[str, Any]: ...
        def state_message(self, seat: int | None) -> messages.State: ...
        def broadcast_state(self, ack: Ack | None = None) -> None: ...
        def announce(self) -> None: ...
        async def submit(
            self, seat: int, action: Any, expect_step: int | None = None, ack: Ack | None = None
        ) -> Refused | None: ...
        def wake(self) -> None: ...
        def watch_absence(self, seat: int) -> None: ...
        def restart_clock(self, since: float | None = None) -> None: ...
        @property
        def over(self) -> bool: ...
        def resume_turn(self) -> None: ...
        def restart_turn(self, stored: bool = False) -> None: ...
        def _keep_views(self) -> None: ...
        def rest(self) -> bool: ...
        async def awake(self) -> None: ...
        @property
        def game_over(self) -> bool: ...
        @property
        def game_result(self) -> dict[str, Any] | None: ...
        @property
        def game_awaited(self) -> frozenset[int]: ...
        @property
        def game_options(self) -> GameOptions: ...

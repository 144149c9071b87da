"""Notifications: the :class:`Notifier` port turns table events into :class:`Notice` s for the
seated players and hands them to every plugged :class:`Channel` (e-mail: :mod:`.email`); each
channel sends only to the players who opted in to it.

Events: ``your_move`` (a turn-based table's move became the player's while they are away),
``ended`` (a game they sat at is over) and ``ready`` (every seat of their table is taken: the
friends came). A notice holds only public facts (the kind, the table's code and game, the
deadline of a move): never a view, a hidden value or a seat token."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ..stopping import stop_tasks
from ..store import Store, seat_tokens
from ..turns import aware

if TYPE_CHECKING:
    from ..ports import TableEvents
    from ..table import LiveTable

log = logging.getLogger("codecrack.web")

Kind = Literal["your_move", "ended", "ready"]


@dataclass(frozen=True)
class Notice:
    """One player's notification: public facts only."""

    kind: Kind
    player_id: int
    code: str
    game: str
    deadline: str | None = None  # your_move on a turn-based table: when the move's time runs out (ISO 8601)


class Channel(Protocol):
    """A way to reach players (e-mail, Web Push): sends each notice to its player if they opted in."""

    async def send(self, notices: list[Notice]) -> None: ...


def seated_players(db: Connection, code: str, seats: list[int]) -> dict[int, int]:
    """``seat -> player id`` of ``seats`` at table ``code`` taken by a browser session."""
    query = select(seat_tokens.c.seat, seat_tokens.c.player_id).where(
        seat_tokens.c.table_code == code, seat_tokens.c.seat.in_(seats), seat_tokens.c.player_id.is_not(None)
    )
    return {seat: player for seat, player in db.execute(query).all()}


class Notifier:
    """The notification port: built by the hub, listening to its tables' events; a channel plugs
    in with :meth:`plug`. Sending runs in tasks of its own: a table never waits for it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.channels: list[Channel] = []
        self.tasks: set[asyncio.Task] = set()

    def plug(self, channel: Channel) -> None:
        self.channels.append(channel)

    def listen(self, events: TableEvents) -> None:
        events.on_committed.append(lambda table, seat, action: self.moved(table))
        events.on_ended.append(self.ended)

    def moved(self, table: LiveTable) -> None:
        """After a step of a turn-based table: the seats whose move it now is, if away."""
        row = table.row
        if not row.turn_hours or row.turn_step != table.step or not row.turn_seats:
            return
        away = [seat for seat in row.turn_seats if not table.connected(seat)]
        deadline = aware(row.turn_deadline).isoformat() if row.turn_deadline else None
        self.tell(table, "your_move", away, deadline)

    def ended(self, table: LiveTable) -> None:
        self.tell(table, "ended", list(range(table.row.players)))

    def ready(self, table: LiveTable, seat: int) -> None:
        """``seat`` was the last open seat taken: tell the others their table is ready."""
        humans = [s for s, plan in enumerate(table.row.seats) if plan["kind"] == "human"]
        if all(table.claimed(s) for s in humans):
            self.tell(table, "ready", [s for s in humans if s != seat])

    def tell(self, table: LiveTable, kind: Kind, seats: list[int], deadline: str | None = None) -> None:
        if not self.channels or not seats or table.anonymous:  # no player there to tell
            return
        task = asyncio.get_running_loop().create_task(self.deliver(kind, table.code, table.row.game, seats, deadline))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def deliver(self, kind: Kind, code: str, game: str, seats: list[int], deadline: str | None) -> None:
        players = await asyncio.to_thread(self.store.read, seated_players, code, seats)
        notices = [Notice(kind, player, code, game, deadline) for player in sorted(set(players.values()))]
        for channel in self.channels:
            try:
                await channel.send(notices)
            except Exception:
                log.exception("a notification channel failed: %r", channel)

    async def stop(self) -> None:
        await stop_tasks(self.tasks)

"""The join protocol of a websocket: find the table, read the hello's token, find the seat it
holds (perhaps claimed through another instance), bring the table up to date and connect; and
leaving again. The socket itself is the caller's (live_routes.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ..i18n import _
from .connections import Connection
from .hub import Hub
from .schema import no_table
from .table import LiveTable
from .tokens import seat_of

NOT_FOUND, POLICY = 4404, 1008  # websocket close codes: no such table, policy violation


class JoinRefused(Exception):
    """The socket is refused: closed with ``code`` after an error saying ``message``."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


async def join(
    hub: Hub,
    code: str,
    hello: Callable[[], Awaitable[str | None]],
    connection_for: Callable[[int | None], Connection],
) -> tuple[LiveTable, Connection]:
    """Join table ``code``: ``hello()`` gives the socket's token (its errors pass through), and
    ``connection_for(seat)`` the connection to greet. Raises :class:`JoinRefused`."""
    table = await hub.hold(code)  # brought up to date after the hello
    if table is None:
        raise JoinRefused(NOT_FOUND, no_table(code))
    token = await hello()
    seat = seat_of(table, token, hub.config.token_hours)
    if seat is None and token:  # perhaps claimed through another instance
        await hub.fanout.sync_seats(table)
        seat = seat_of(table, token, hub.config.token_hours)
    if seat is None and table.spectators() >= hub.config.spectators_per_table:
        raise JoinRefused(
            POLICY, _("this table already has {count} spectators").format(count=hub.config.spectators_per_table)
        )
    connection = connection_for(seat)
    await hub.fanout.sync(table)  # steps stored elsewhere while it waited for the hello
    table = await hub.hold(table.code)  # it may have been pushed out of the loaded tables meanwhile
    if table is None:  # and deleted, as a table nobody joined
        raise JoinRefused(NOT_FOUND, no_table(code))
    await table.awake()  # a resting table's record played again, a long one off the event loop (resting.py)
    table.connect(connection)  # the newest connection of a seat wins: an older one is closed
    return table, connection


def leave(hub: Hub, table: LiveTable, connection: Connection) -> None:
    table.disconnect(connection)
    hub.release(table)

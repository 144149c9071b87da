"""Closing a live table for good (``codecrack admin close``): its players are told why, their
sockets closed, and the table is unloaded; it is never loaded again (``tables.closed``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import N_, translate

if TYPE_CHECKING:
    from .hub import Hub
    from .table import LiveTable

CLOSED = 4410  # websocket close code: the table is gone for good
CLOSED_TEXT = N_("the server's operator closed this table: {reason}")


def close_live(hub: Hub, table: LiveTable, reason: str) -> None:
    """Tell everyone connected to ``table`` here why it closed (each in their own language), close
    their sockets and unload it."""
    for connection in list(table.connections):
        message = translate(CLOSED_TEXT, connection.language).format(reason=reason)
        connection.push({"type": "error", "message": message})
        connection.end(CLOSED, "table closed")
    hub.unload(table)

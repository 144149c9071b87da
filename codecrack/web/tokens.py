"""Seat tokens: how a request proves its seat, and how long a token counts.

Tokens never travel in URLs (which end up in access logs): HTTP requests send
``Authorization: Bearer TOKEN``, and a websocket sends ``{"type": "hello", "token": ...}`` as its
first message. A token counts for ``token_hours`` after its table was created (a rematch is a new
table, so the tokens it carries over start again); after that it is ignored, as if absent.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from fastapi import Header

if TYPE_CHECKING:
    from .table import LiveTable


async def bearer_token(
    authorization: str | None = Header(None, max_length=200, description="`Bearer TOKEN`: a seat token"),
) -> str | None:
    """The seat token of an HTTP request, from its ``Authorization: Bearer TOKEN`` header, if any.

    An optional header parameter (not a security scheme, which OpenAPI would mark as required).
    """
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def expired(created_at: datetime, hours: float, now: datetime | None = None) -> bool:
    """Whether a token of a table created at ``created_at`` no longer counts.

    >>> start = datetime(2026, 1, 1, tzinfo=UTC)
    >>> expired(start, 24, start + timedelta(hours=23)), expired(start.replace(tzinfo=None), 24, start + timedelta(hours=25))
    (False, True)
    """
    if created_at.tzinfo is None:  # SQLite gives back naive datetimes; they were stored in UTC
        created_at = created_at.replace(tzinfo=UTC)
    return (now or datetime.now(UTC)) - created_at > timedelta(hours=hours)


def seat_of(table: LiveTable, token: str | None, hours: float) -> int | None:
    """The seat ``token`` holds at ``table``, or ``None`` (no token, a wrong one, or an expired one)."""
    if token is None or expired(table.row.created_at, hours):
        return None
    return table.seat_for(token)

"""Seat tokens: how a request proves its seat, and how long a token counts.

Tokens never travel in URLs (which end up in access logs): HTTP requests send
``Authorization: Bearer TOKEN``, and a websocket sends ``{"type": "hello", "token": ...}`` as its
first message. A token counts for ``token_hours`` after its table was created (a rematch is a new
table, so the tokens it carries over start again); after that it is ignored, as if absent.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fastapi import Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .table import LiveTable

bearer = HTTPBearer(auto_error=False, description="a seat token, as `Authorization: Bearer TOKEN`")


async def bearer_token(credentials: HTTPAuthorizationCredentials | None = Security(bearer)) -> str | None:
    """The seat token of an HTTP request, if it sent one."""
    return credentials.credentials if credentials else None


def expired(created_at: datetime, hours: float, now: datetime | None = None) -> bool:
    """Whether a token of a table created at ``created_at`` no longer counts.

    >>> start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    >>> expired(start, 24, start + timedelta(hours=23)), expired(start.replace(tzinfo=None), 24, start + timedelta(hours=25))
    (False, True)
    """
    if created_at.tzinfo is None:  # SQLite gives back naive datetimes; they were stored in UTC
        created_at = created_at.replace(tzinfo=timezone.utc)
    return (now or datetime.now(timezone.utc)) - created_at > timedelta(hours=hours)


def seat_of(table: LiveTable, token: str | None, hours: float) -> int | None:
    """The seat ``token`` holds at ``table``, or ``None`` (no token, a wrong one, or an expired one)."""
    if token is None or expired(table.row.created_at, hours):
        return None
    return table.seat_for(token)

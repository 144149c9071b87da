"""Players and their sessions.

A browser's session cookie holds a random secret; the database keeps only the secret's SHA-256 as
the session's id, so a copy of the database opens no session. Every session is read from the
database on use, so any instance serves it and a session removed on one instance is gone on all.
The cookie is HttpOnly, SameSite=Lax, and Secure when the request came over TLS.

A route gets the player with ``player: Player | None = Depends(current_player)`` (or
``Depends(required_player)``, 401 without one); a websocket with ``await socket_player(websocket)``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from fastapi import HTTPException, Request, Response, WebSocket
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from ...i18n import _
from ..store import now, player_sessions, players
from .csrf import same_origin

T = TypeVar("T")
COOKIE = "codecrack_session"
TOUCH_EVERY = timedelta(hours=1)  # a session's expiry slides forward at most this often (a write)


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    handle: str | None = None  # an account's; a guest has none

    @property
    def guest(self) -> bool:
        return self.handle is None


def session_id(secret: str) -> str:
    """The stored id of the session whose cookie holds ``secret``."""
    return hashlib.sha256(secret.encode()).hexdigest()


def csrf_token(secret: str) -> str:
    """The token a page of this site sends in ``X-CSRF-Token`` with every state change: derived from
    the session's secret, which no other site can read.

    >>> csrf_token("a") == csrf_token("a") != csrf_token("b")
    True
    """
    return hmac.new(secret.encode(), b"codecrack csrf", hashlib.sha256).hexdigest()


def guest_name() -> str:
    """A generated name for a guest who gave none."""
    return f"guest-{secrets.randbelow(10000):04d}"


def aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# -- write steps (run by the hub's writer) -------------------------------------------------------
def add_guest(db: Connection, name: str, secret: str, days: float) -> Player:
    player_id = db.execute(insert(players).values(name=name, created_at=now()).returning(players.c.id)).scalar_one()
    add_session(db, player_id, secret, days)
    return Player(player_id, name)


def add_session(db: Connection, player_id: int, secret: str, days: float) -> None:
    at = now()
    db.execute(
        insert(player_sessions).values(
            id=session_id(secret), player_id=player_id, created_at=at, seen_at=at, expires_at=at + timedelta(days=days)
        )
    )


def replace_session(db: Connection, player_id: int, secret: str, old: str | None, days: float) -> None:
    if old:
        end_session(db, old)
    add_session(db, player_id, secret, days)


def end_session(db: Connection, key: str) -> None:
    db.execute(delete(player_sessions).where(player_sessions.c.id == key))


def end_sessions(db: Connection, player_id: int) -> None:
    db.execute(delete(player_sessions).where(player_sessions.c.player_id == player_id))


def touch_session(db: Connection, key: str, days: float) -> None:
    at = now()
    db.execute(
        update(player_sessions)
        .where(player_sessions.c.id == key)
        .values(seen_at=at, expires_at=at + timedelta(days=days))
    )


def rename(db: Connection, player_id: int, name: str) -> None:
    db.execute(update(players).where(players.c.id == player_id).values(name=name))


class Players:
    """The players' store: reads on the hub's engine, writes through its writer."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.days = hub.config.session_days

    def _read_session(self, key: str) -> tuple[Player, datetime] | None:
        query = (
            select(players.c.id, players.c.name, players.c.handle, player_sessions.c.seen_at)
            .join(players, players.c.id == player_sessions.c.player_id)
            .where(player_sessions.c.id == key, player_sessions.c.expires_at > now())
        )
        with self.hub.engine.connect() as db:
            row = db.execute(query).first()
        return (Player(row.id, row.name, row.handle), aware(row.seen_at)) if row else None

    async def by_secret(self, secret: str | None) -> Player | None:
        """The player of the session whose cookie holds ``secret``, if it is a live session."""
        if not secret:
            return None
        key = session_id(secret)
        found = await asyncio.to_thread(self._read_session, key)
        if found is None:
            return None
        player, seen_at = found
        if now() - seen_at > TOUCH_EVERY:
            await self.hub.writer.write(touch_session, key, self.days)
        return player

    async def new_guest(self, name: str) -> tuple[Player, str]:
        """A new guest player and its session's secret (for the cookie)."""
        secret = secrets.token_urlsafe(32)
        player = await self.hub.writer.write(add_guest, name or guest_name(), secret, self.days)
        return player, secret

    async def rename(self, player: Player, name: str) -> Player:
        await self.hub.writer.write(rename, player.id, name)
        return Player(player.id, name, player.handle)

    async def new_session(self, player: Player, old_secret: str | None) -> str:
        """A new session for ``player`` (a new id: the old one, if any, is ended), its secret returned."""
        secret = secrets.token_urlsafe(32)
        await self.hub.writer.write(
            replace_session, player.id, secret, old_secret and session_id(old_secret), self.days
        )
        return secret


def read(engine: Any, step: Callable[..., T], *args: Any) -> T:
    """``step(db, *args)`` on a connection of its own (run it with ``asyncio.to_thread``). On
    PostgreSQL each statement is its own transaction: a read opens and ends none of its own, which
    would cost two round trips to the server (``BEGIN``, ``ROLLBACK``) for nothing written."""
    with engine.connect() as db:
        if db.dialect.name == "postgresql":
            db.execution_options(isolation_level="AUTOCOMMIT")
        return step(db, *args)


def players_of(connection: Request | WebSocket) -> Players:
    return connection.app.state.players


async def current_player(request: Request) -> Player | None:
    """The request's player, from its session cookie; ``None`` without a live session."""
    return await players_of(request).by_secret(request.cookies.get(COOKIE))


async def required_player(request: Request) -> Player:
    player = await current_player(request)
    if player is None:
        raise HTTPException(status_code=401, detail=_("no player: this browser has no session"))
    return player


async def socket_player(websocket: WebSocket) -> Player | None:
    """The websocket's player, from its session cookie; ``None`` without one, or when the socket was
    opened by another site's page (a browser sends the cookie along; the Origin tells)."""
    if not same_origin(websocket.scope, required=False):
        return None
    return await players_of(websocket).by_secret(websocket.cookies.get(COOKIE))


def set_session_cookie(response: Response, request: Request, secret: str, days: float) -> None:
    response.set_cookie(
        COOKIE,
        secret,
        max_age=int(days * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )

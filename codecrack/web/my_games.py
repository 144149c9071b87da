""" "My games": ``GET /api/me/games`` lists the unfinished tables where the session's player is
seated, those where it is the player's move first (then the latest active). Whose move it is
comes from the live table when this instance has it loaded, else from a turn-based table's stored
deadline (``tables.turn_seats``); a live table that is not loaded here shows no move."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.engine import Connection

from .hub import Hub
from .players.identity import Player, required_player
from .schema import Problem
from .store import seat_tokens, tables
from .turns import aware

MY_GAMES = 50  # unfinished tables listed at most


class MyGame(BaseModel):
    code: str
    game: str
    seat: int
    your_move: bool
    deadline: str | None = Field(None, description="a turn-based table: when your move's time runs out (ISO 8601)")


def seated_at(db: Connection, player_id: int) -> list[dict[str, Any]]:
    """The player's seats at unfinished, open tables, the latest active first."""
    query = (
        select(
            tables.c.code,
            tables.c.game,
            seat_tokens.c.seat,
            tables.c.turn_seats,
            tables.c.turn_deadline,
        )
        .join(tables, tables.c.code == seat_tokens.c.table_code)
        .where(seat_tokens.c.player_id == player_id, tables.c.finished.is_(False), tables.c.closed.is_(None))
        .order_by(tables.c.active_at.desc(), seat_tokens.c.seat)
        .limit(MY_GAMES)
    )
    return [dict(row) for row in db.execute(query).mappings()]


def my_games_router(hub: Hub) -> APIRouter:
    router = APIRouter()

    def entry(row: dict[str, Any]) -> MyGame:
        live = hub.live.get(row["code"])
        seat = row["seat"]
        if live is not None:
            your_move = not live.over and seat in live.waiting_on()
            deadline: datetime | None = live.row.turn_deadline
        else:
            your_move = seat in (row["turn_seats"] or [])
            deadline = row["turn_deadline"]
        shown = aware(deadline).isoformat() if your_move and deadline else None
        return MyGame(code=row["code"], game=row["game"], seat=seat, your_move=your_move, deadline=shown)

    @router.get("/api/me/games", responses={401: {"model": Problem}})
    async def my_games(player: Player = Depends(required_player)) -> list[MyGame]:
        """The player's unfinished tables, those where it is the player's move first."""
        rows = await asyncio.to_thread(hub.store.read, seated_at, player.id)
        games = [entry(row) for row in rows]
        return sorted(games, key=lambda game: not game.your_move)  # stable: the latest first within each

    return router

"""``/api/me``: the browser's player (a guest, made on the first visit), and the seats it holds.

A page of this site calls ``GET /api/me`` first: it gives the player (or none yet) and the CSRF
token every state change sends (:mod:`.csrf`). ``POST /api/me/guest`` makes a guest and its session.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import select

from ...core.errors import OptionError, explain
from ...i18n import _
from ..hub import checked_name
from ..schema import ERRORS, Name, Problem, Strict
from ..store import seat_tokens, tables
from .csrf import same_origin
from .identity import COOKIE, Player, Players, csrf_token, current_player, required_player, set_session_cookie

MY_TABLES = 50  # the unfinished tables ``GET /api/me/seats`` lists at most


class PlayerInfo(BaseModel):
    name: str
    handle: str | None = Field(description="the account's handle; null for a guest")
    guest: bool = Field(description="no account yet")


class Me(BaseModel):
    player: PlayerInfo | None
    csrf: str | None = Field(description="send it as X-CSRF-Token with every POST, PATCH and DELETE")


class NameRequest(Strict):
    name: Name = ""


class MySeat(BaseModel):
    code: str
    game: str
    seat: int


class MySeatToken(MySeat):
    token: str


def me_answer(player: Player | None, secret: str | None) -> dict[str, Any]:
    """``GET /api/me``'s answer for ``player``, whose session's cookie holds ``secret``."""
    if player is None or secret is None:  # a player comes from a session's cookie, so has one
        return {"player": None, "csrf": None}
    return {"player": {"name": player.name, "handle": player.handle, "guest": player.guest}, "csrf": csrf_token(secret)}


def players_router(hub: Any, players: Players) -> APIRouter:
    router = APIRouter()

    def name_or_400(name: str) -> str:
        try:
            return checked_name(name, hub.config.max_name_length, "name")
        except OptionError as error:
            raise HTTPException(status_code=400, detail=explain(error)) from None

    @router.get("/api/me", response_model=Me)
    async def who(request: Request, player: Player | None = Depends(current_player)) -> dict[str, Any]:
        return me_answer(player, request.cookies.get(COOKIE))

    @router.post("/api/me/guest", responses={**ERRORS, 403: {"model": Problem}}, response_model=Me)
    async def guest(body: NameRequest, request: Request, response: Response) -> dict[str, Any]:
        """A guest player and its session (the cookie), unless the browser has a live one already."""
        if not same_origin(request.scope, required=False):
            raise HTTPException(status_code=403, detail=_("refused: this request came from another site"))
        player = await current_player(request)
        if player is not None:
            return me_answer(player, request.cookies.get(COOKIE))
        player, secret = await players.new_guest(name_or_400(body.name))
        set_session_cookie(response, request, secret, hub.config.session_days)
        return me_answer(player, secret)

    @router.patch("/api/me", responses={**ERRORS, 401: {"model": Problem}, 403: {"model": Problem}}, response_model=Me)
    async def rename(body: NameRequest, request: Request, player: Player = Depends(required_player)) -> dict[str, Any]:
        name = name_or_400(body.name)
        if not name:
            raise HTTPException(status_code=400, detail=_("name: give a name"))
        return me_answer(await players.rename(player, name), request.cookies.get(COOKIE))

    @router.get("/api/me/seats", responses={401: {"model": Problem}}, response_model=list[MySeat])
    async def my_seats(player: Player = Depends(required_player)) -> list[dict[str, Any]]:
        """The seats the player holds at unfinished tables, the newest table first."""
        query = (
            select(seat_tokens.c.table_code.label("code"), tables.c.game, seat_tokens.c.seat)
            .join(tables, tables.c.code == seat_tokens.c.table_code)
            .where(seat_tokens.c.player_id == player.id, tables.c.finished.is_(False))
            .order_by(tables.c.created_at.desc(), seat_tokens.c.seat)
            .limit(MY_TABLES)
        )
        return await asyncio.to_thread(read_all, hub.engine, query)

    @router.get("/api/tables/{code}/mine", responses={**ERRORS, 401: {"model": Problem}}, response_model=MySeatToken)
    async def my_seat(code: str, player: Player = Depends(required_player)) -> dict[str, Any]:
        """The player's seat at the table and its token (for the socket's hello)."""
        query = (
            select(seat_tokens.c.table_code.label("code"), tables.c.game, seat_tokens.c.seat, seat_tokens.c.token)
            .join(tables, tables.c.code == seat_tokens.c.table_code)
            .where(seat_tokens.c.table_code == code.upper(), seat_tokens.c.player_id == player.id)
            .order_by(seat_tokens.c.seat)
            .limit(1)
        )
        found = await asyncio.to_thread(read_all, hub.engine, query)
        if not found:
            raise HTTPException(status_code=404, detail=_("you hold no seat at table '{code}'").format(code=code))
        return found[0]

    return router


def read_all(engine: Any, query: Any) -> list[dict[str, Any]]:
    with engine.connect() as db:
        return [dict(row) for row in db.execute(query).mappings()]

"""The lobby's HTTP API for tables: list, create, show, take a seat and rematch (replays: replays.py)."""

# No ``from __future__ import annotations``: the body model of ``POST /api/tables`` is built when
# the router is (one variant per game), and FastAPI reads route annotations as real objects.

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request

from ..core.errors import OptionError, explain
from ..i18n import N_, _
from ..tutorials import is_tutorial
from .hub import Hub, NotInvited
from .once import Once
from .players.identity import Player, current_player
from .schema import (
    ERRORS,
    Created,
    Joined,
    JoinRequest,
    Problem,
    Rematched,
    TableInfo,
    create_table_model,
    no_table,
)
from .summaries import table_summary
from .table import LiveTable
from .tokens import bearer_token, seat_of
from .turns import TurnPlan


def bad_request(error: Exception) -> HTTPException:
    return HTTPException(status_code=400, detail=explain(error))


def too_many_tables(hub: Hub) -> HTTPException:
    return HTTPException(
        status_code=429,
        detail=_("at most {count} new tables per minute from one address").format(count=hub.config.tables_per_minute),
    )


async def table_or_404(hub: Hub, code: str) -> LiveTable:
    table = await hub.find(code)
    if table is None:
        raise HTTPException(status_code=404, detail=no_table(code))
    return table


def table_router(
    hub: Hub, game_names: list[str], address_of: Callable[[Request], str], allowed: Callable[[Request], Awaitable[bool]]
) -> APIRouter:
    """``address_of(request)``: the client's address; ``await allowed(request)``: the app's limit on
    new tables per address (counted)."""
    router = APIRouter()
    config = hub.config
    CreateTable: Any = create_table_model(game_names)
    created_once = Once()

    @router.get("/api/tables", response_model=list[TableInfo])
    async def tables() -> list[dict[str, Any]]:
        finished_since = datetime.now(UTC) - timedelta(seconds=config.finished_listed_for)
        rows = [
            row for row in await asyncio.to_thread(hub.store.list_tables, finished_since) if not is_tutorial(row.seats)
        ]
        stored = [row.code for row in rows if row.code not in hub.live]
        names = await asyncio.to_thread(hub.store.seat_names, stored)
        return [
            hub.live[row.code].summary() if row.code in hub.live else table_summary(row, names.get(row.code, {}))
            for row in rows
        ]

    @router.post("/api/tables", responses={**ERRORS, 429: {"model": Problem}}, response_model=Created)
    async def create(
        request: CreateTable, http: Request, player: Player | None = Depends(current_player)
    ) -> dict[str, Any]:
        key = None if request.client_key is None else f"{address_of(http)} {request.client_key}"
        return await created_once.run(key, lambda: make_table(request, http, player))

    async def make_table(request: Any, http: Request, player: Player | None) -> dict[str, Any]:
        if not await allowed(http):
            raise too_many_tables(hub)
        if request.seed is not None and not config.allow_seed:
            raise bad_request(OptionError(N_("seed: this server chooses every table's seed itself")))
        players = request.players or len(request.seats)
        try:
            table = await hub.create(
                request.game,
                players,
                request.options.model_dump(exclude_unset=True),
                [s.model_dump() for s in request.seats],
                request.takeover,
                request.seed,
                sit=request.sit,
                name=request.name,
                player=player,
                for_friends=request.open_to == "link",
                origin=address_of(http),
                turns=None if request.turn_hours is None else TurnPlan(request.turn_hours, request.on_lapse),
            )
            token = next(iter(table.tokens), None)
        except OptionError as error:
            raise bad_request(error) from None
        return {
            "code": table.code,
            "seat": request.sit,
            "token": token,
            "table": table.summary(),
            "invite": table.row.invite,
        }

    @router.get("/api/tables/{code}", responses=ERRORS, response_model=TableInfo)
    async def show(code: str) -> dict[str, Any]:
        return (await table_or_404(hub, code)).summary()

    @router.post("/api/tables/{code}/join", responses={**ERRORS, 403: {"model": Problem}}, response_model=Joined)
    async def join(code: str, request: JoinRequest, player: Player | None = Depends(current_player)) -> dict[str, Any]:
        table = await table_or_404(hub, code)
        try:
            token = await hub.claim(table, request.seat, request.name, player, request.invite)
        except OptionError as error:
            raise bad_request(error) from None
        except NotInvited:
            raise HTTPException(
                status_code=403, detail=_("this table's seats are for invited friends: ask a player for its link")
            ) from None
        return {"code": table.code, "seat": request.seat, "token": token}

    @router.post("/api/tables/{code}/rematch", responses={**ERRORS, 403: {"model": Problem}}, response_model=Rematched)
    async def rematch(code: str, token: str | None = Depends(bearer_token)) -> dict[str, Any]:
        table = await table_or_404(hub, code)
        if seat_of(table, token, config.token_hours) is None:
            raise HTTPException(
                status_code=403, detail=_("only a seated player (with their seat token) may start a rematch")
            )
        try:
            fresh = await hub.rematch(table)
        except OptionError as error:
            raise bad_request(error) from None
        return {"code": fresh.code, "table": fresh.summary()}

    return router

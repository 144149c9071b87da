"""Accounts over HTTP: a guest becomes an account (``POST /api/me/account``), signs in on any
browser (``POST /api/session``) and signs out here or everywhere (``DELETE /api/session``,
``DELETE /api/sessions``). Every sign-in and account creation gives the browser a new session id.
A player downloads its own data (``GET /api/me/export``) and deletes itself (``DELETE /api/me``;
an account confirms with its password): :mod:`.leaving`.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import Field
from sqlalchemy import select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ...core.errors import OptionError, explain
from ...i18n import N_, _
from ..schema import ERRORS, Problem, Strict
from ..store import players
from .accounts import (
    checked_handle,
    checked_password,
    clear_failures,
    count_failure,
    handle_key,
    hash_password,
    password_matches,
    throttle_keys,
    throttled,
)
from .csrf import same_origin
from .identity import (
    COOKIE,
    Player,
    Players,
    end_session,
    end_sessions,
    read,
    required_player,
    session_id,
    set_session_cookie,
)
from .leaving import delete_player, export
from .routes import Me, me_answer

Text = Annotated[str, Field(max_length=256)]
HOUR = 3600  # the exports' rate window, in seconds
REFUSED = {**ERRORS, 401: {"model": Problem}, 403: {"model": Problem}, 429: {"model": Problem}}


class Credentials(Strict):
    handle: Annotated[str, Field(max_length=64)]
    password: Text


class Confirmation(Strict):
    password: Text = Field("", description="an account's password; a guest sends none")


def make_account(db: Connection, player_id: int, handle: str, password_hash: str) -> bool:
    """Give the guest ``player_id`` its handle and password; ``False`` if it has an account already.
    The handle's unique key refuses a taken one (:class:`IntegrityError`)."""
    return bool(
        db.execute(
            update(players)
            .where(players.c.id == player_id, players.c.handle.is_(None))
            .values(handle=handle, handle_key=handle_key(handle), password_hash=password_hash)
        ).rowcount
    )


async def signed_in(request: Request, response: Response, accounts: Players, account: Player) -> dict[str, Any]:
    """``account``'s new session on this browser (a new id: the browser's old session ends)."""
    secret = await accounts.new_session(account, request.cookies.get(COOKIE))
    set_session_cookie(response, request, secret, accounts.days)
    return me_answer(account, secret)


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def account_router(hub: Any, accounts: Players) -> APIRouter:
    router = APIRouter()
    write = hub.writer.write
    config = hub.config
    by_player = hub.fanout.window("exports", config.exports_per_hour, HOUR)
    by_address = hub.fanout.window("exports-address", config.exports_per_address, HOUR)

    @router.post("/api/me/account", responses=REFUSED, response_model=Me)
    async def create_account(
        body: Credentials, request: Request, response: Response, player: Player = Depends(required_player)
    ) -> dict[str, Any]:
        """The guest becomes an account, keeping its player (its seats and history)."""
        try:
            handle, password = checked_handle(body.handle), checked_password(body.password)
        except OptionError as error:
            raise HTTPException(status_code=400, detail=explain(error)) from None
        if not player.guest:
            raise HTTPException(status_code=400, detail=_("this player has an account already"))
        try:
            made = await write(make_account, player.id, handle, await hash_password(password))
        except IntegrityError:
            raise HTTPException(
                status_code=400, detail=_("handle: '{handle}' is taken").format(handle=handle)
            ) from None
        if not made:
            raise HTTPException(status_code=400, detail=_("this player has an account already"))
        account = Player(player.id, player.name, handle)
        return await signed_in(request, response, accounts, account)

    @router.post("/api/session", responses=REFUSED, response_model=Me)
    async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Sign in with a handle and password: the same answer, after the same work, for an unknown
        handle as for a wrong password."""
        if not same_origin(request.scope, required=False):
            raise HTTPException(status_code=403, detail=_("refused: this request came from another site"))
        limits = throttle_keys(body.handle, address(request))
        if await asyncio.to_thread(read, hub.engine, throttled, limits):
            raise HTTPException(status_code=429, detail=_("too many failed sign-ins; try again in 15 minutes"))
        found = await asyncio.to_thread(read, hub.engine, account_of, handle_key(body.handle))
        account, stored = found or (None, None)
        if not await password_matches(stored, body.password) or account is None:
            await write(count_failure, list(limits))
            raise HTTPException(status_code=401, detail=_("wrong handle or password"))
        await write(clear_failures, next(iter(limits)))
        return await signed_in(request, response, accounts, account)

    @router.delete("/api/session", responses={401: {"model": Problem}, 403: {"model": Problem}}, response_model=Me)
    async def sign_out(
        request: Request, response: Response, player: Player = Depends(required_player)
    ) -> dict[str, Any]:
        """End this browser's session."""
        await write(end_session, session_id(request.cookies[COOKIE]))
        response.delete_cookie(COOKIE, path="/")
        return me_answer(None, None)

    @router.delete("/api/sessions", responses={401: {"model": Problem}, 403: {"model": Problem}}, response_model=Me)
    async def sign_out_everywhere(response: Response, player: Player = Depends(required_player)) -> dict[str, Any]:
        """End every session of the player, on every browser."""
        await write(end_sessions, player.id)
        response.delete_cookie(COOKIE, path="/")
        return me_answer(None, None)

    @router.get(
        "/api/me/export",
        responses={401: {"model": Problem}, 429: {"model": Problem}},
        response_class=StreamingResponse,
    )
    async def export_data(request: Request, player: Player = Depends(required_player)) -> StreamingResponse:
        """Everything stored about the player, as JSON: its games' records, ratings and sessions
        (sent as it is read; at most ``exports_per_hour`` a player and ``exports_per_address`` an
        address in any hour: 429)."""
        for window, key, count, text in (
            (by_player, f"player:{player.id}", config.exports_per_hour, N_("at most {count} exports an hour")),
            (
                by_address,
                address(request),
                config.exports_per_address,
                N_("at most {count} exports an hour from one address"),
            ),
        ):
            if not await window.allow(key):
                raise HTTPException(
                    status_code=429, detail=_(text).format(count=count), headers={"Retry-After": str(HOUR)}
                )
        return StreamingResponse(
            export(hub.engine, player.id),  # a plain iterator: Starlette reads it in a worker thread
            media_type="application/json",
            headers={"content-disposition": 'attachment; filename="codecrack-player.json"'},
        )

    @router.delete("/api/me", responses=REFUSED, response_model=Me)
    async def delete_account(
        body: Confirmation, request: Request, response: Response, player: Player = Depends(required_player)
    ) -> dict[str, Any]:
        """Delete the player: its games stay replayable, its seats are named "deleted player"."""
        if player.handle is not None:  # an account: a browser left signed in cannot delete it
            limits = throttle_keys(player.handle, address(request))
            if await asyncio.to_thread(read, hub.engine, throttled, limits):
                raise HTTPException(status_code=429, detail=_("too many failed sign-ins; try again in 15 minutes"))
            found = await asyncio.to_thread(read, hub.engine, account_of, handle_key(player.handle))
            if found is None or not await password_matches(found[1], body.password):
                await write(count_failure, list(limits))
                raise HTTPException(status_code=401, detail=_("wrong password"))
        await write(delete_player, player.id)
        response.delete_cookie(COOKIE, path="/")
        return me_answer(None, None)

    return router


def account_of(db: Connection, key: str) -> tuple[Player, str] | None:
    """The account whose handle's key is ``key``, and its password hash."""
    row = db.execute(
        select(players.c.id, players.c.name, players.c.handle, players.c.password_hash).where(
            players.c.handle_key == key
        )
    ).first()
    return (Player(row.id, row.name, row.handle), row.password_hash) if row else None

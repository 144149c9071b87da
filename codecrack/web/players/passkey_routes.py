"""Passkeys over HTTP (:mod:`.passkeys`): an account lists, adds and removes its passkeys
(``/api/me/passkeys``); anyone signs in with one (``POST /api/session/passkey``), which returns the
player to every seat it holds, as a password does.

The same protections as for passwords: the cookie-authenticated calls pass the CSRF guard, a
sign-in without a session must come from this site's page, failed sign-ins are counted per address
(and per account once the passkey is known) and refused past the limit, and each sign-in is a new
session id. Asking for a ceremony's options writes a challenge, so it is limited per address.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response
from pydantic import BaseModel, Field

from ...i18n import _
from ..schema import ERRORS, Problem, Strict
from .account_routes import REFUSED, address, signed_in
from .accounts import clear_failures, count_failure, throttle_keys, throttled
from .csrf import same_origin
from .identity import Player, Players, read, required_player
from .passkeys import (
    Refused,
    add_passkey,
    challenge_text,
    credential_of,
    keep_challenge,
    passkeys_of,
    registration_options,
    remove_passkey,
    sign_in_options,
    site_of,
    take_challenge,
    used,
    verified_registration,
    verified_sign_in,
)
from .routes import Me

CEREMONIES_PER_MINUTE = 20  # options (each a stored challenge) one client address may ask for


class Answer(Strict):
    challenge: Annotated[str, Field(max_length=64, description="the challenge of the options answered")]
    credential: dict[str, Any] = Field(description="the browser's PublicKeyCredential, as its toJSON() gives it")


class Passkey(BaseModel):
    id: str
    created_at: str
    used_at: str | None


def passkey_router(hub: Any, accounts: Players) -> APIRouter:
    router = APIRouter()
    write = hub.writer.write
    ceremonies = hub.fanout.window("passkeys", CEREMONIES_PER_MINUTE, 60.0)

    def site(request: Request) -> tuple[str, str]:
        return site_of(request.url.scheme, request.headers.get("host", ""))

    async def new_challenge(request: Request, player_id: int | None) -> bytes:
        if not await ceremonies.allow(address(request)):
            raise HTTPException(
                status_code=429,
                detail=_("at most {count} passkey requests per minute from one address").format(
                    count=CEREMONIES_PER_MINUTE
                ),
            )
        challenge, text = challenge_text()
        await write(keep_challenge, text, player_id)
        return challenge

    async def listed(player: Player) -> list[dict[str, Any]]:
        return await asyncio.to_thread(read, hub.engine, passkeys_of, player.id)

    def account(player: Player = Depends(required_player)) -> Player:
        if player.guest:
            raise HTTPException(status_code=400, detail=_("passkeys are for accounts: make one first"))
        return player

    @router.get("/api/me/passkeys", responses=REFUSED, response_model=list[Passkey])
    async def my_passkeys(player: Player = Depends(account)) -> list[dict[str, Any]]:
        return await listed(player)

    @router.post("/api/me/passkeys/options", responses=REFUSED)
    async def adding(request: Request, player: Player = Depends(account)) -> dict[str, Any]:
        """The options for ``navigator.credentials.create`` (its challenge is good once, for 5 minutes)."""
        kept = [key["id"] for key in await listed(player)]
        return registration_options(site(request)[0], player, await new_challenge(request, player.id), kept)

    @router.post("/api/me/passkeys", responses=REFUSED, response_model=list[Passkey])
    async def add(body: Answer, request: Request, player: Player = Depends(account)) -> list[dict[str, Any]]:
        """Keep the passkey the browser made with the options of ``challenge``."""
        if not await write(take_challenge, body.challenge, player.id):
            raise HTTPException(status_code=400, detail=_("this passkey request expired or was used; try again"))
        try:
            credential_id, public_key, sign_count = verified_registration(
                body.credential, body.challenge, *site(request)
            )
        except Refused:
            raise HTTPException(status_code=400, detail=_("the passkey could not be verified")) from None
        if not await write(add_passkey, player.id, credential_id, public_key, sign_count):
            raise HTTPException(status_code=400, detail=_("this passkey is kept already, or the account has 10"))
        return await listed(player)

    @router.delete("/api/me/passkeys/{credential_id}", responses=REFUSED, response_model=list[Passkey])
    async def remove(
        credential_id: Annotated[str, Path(max_length=1400)], player: Player = Depends(account)
    ) -> list[dict[str, Any]]:
        if not await write(remove_passkey, player.id, credential_id):
            raise HTTPException(status_code=404, detail=_("no such passkey"))
        return await listed(player)

    @router.post("/api/session/passkey/options", responses={**ERRORS, 403: {"model": Problem}, 429: {"model": Problem}})
    async def signing_in(request: Request) -> dict[str, Any]:
        """The options for ``navigator.credentials.get`` (any passkey of this site)."""
        if not same_origin(request.scope, required=False):
            raise HTTPException(status_code=403, detail=_("refused: this request came from another site"))
        return sign_in_options(site(request)[0], await new_challenge(request, None))

    @router.post("/api/session/passkey", responses=REFUSED, response_model=Me)
    async def sign_in(body: Answer, request: Request, response: Response) -> dict[str, Any]:
        """Sign in with the passkey the browser chose for the options of ``challenge``."""
        if not same_origin(request.scope, required=False):
            raise HTTPException(status_code=403, detail=_("refused: this request came from another site"))
        live = await write(take_challenge, body.challenge, None)
        credential_id = str(body.credential.get("id", ""))[:1400]
        found = await asyncio.to_thread(read, hub.engine, credential_of, credential_id)
        limits = throttle_keys(found[0].handle if found else None, address(request))
        if await asyncio.to_thread(read, hub.engine, throttled, limits):
            raise HTTPException(status_code=429, detail=_("too many failed sign-ins; try again in 15 minutes"))
        try:
            if not live or found is None:
                raise Refused("unknown challenge or passkey")
            player, public_key, sign_count = found
            new_count = verified_sign_in(body.credential, body.challenge, *site(request), public_key, sign_count)
        except Refused:
            await write(count_failure, list(limits))
            raise HTTPException(status_code=401, detail=_("this passkey could not sign you in")) from None
        await write(used, credential_id, new_count)
        await write(clear_failures, next(iter(limits)))
        return await signed_in(request, response, accounts, player)

    return router

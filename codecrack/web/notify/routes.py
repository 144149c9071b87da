"""Notifications over HTTP.

- ``GET /api/me/notify``: the player's e-mail address for notifications, if they opted in.
- ``PUT /api/me/notify/email`` ``{"address", "consent": true}``: opt in (or change the address); the
  e-mails come in the page's language.
- ``DELETE /api/me/notify/email``: opt out.
- ``GET /api/notify/unsubscribe?token=``: the page an e-mail's link opens, with one button; ``POST``
  with the same token (the button, or a mail client's one-click, RFC 8058) opts out. The token is
  its own authority (no session needed) and is signed: a forged or stale one changes nothing.
"""

from __future__ import annotations

import asyncio
import html
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ...i18n import N_, _, current
from ..hub import Hub
from ..players.identity import Player, required_player
from ..schema import ERRORS, Problem, Strict
from .email import UNSUBSCRIBE_PATH, subscribe, subscription, unsubscribe, unsubscribe_by_token, unsubscribe_key

# The unsubscribe page is HTML; its refusal (a malformed or stale token) is the usual JSON problem.
REFUSED_IN_JSON: dict[int | str, dict[str, Any]] = {
    400: {
        "description": "a malformed or stale token",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }
}

# an address as RFC 5321 bounds it, with one @ and no spaces or angle brackets
ADDRESS = r"^[^@\s<>,;]{1,64}@[^@\s<>,;]{1,253}$"
TOKEN = Annotated[str, Query(max_length=200)]
PAGE_TITLE = N_("Stop codecrack e-mails")
PAGE_ASK = N_("Stop the notification e-mails of codecrack?")
PAGE_DONE = N_("Done: codecrack sends you no more e-mails.")
PAGE_STALE = N_("This link is no longer valid: you get no e-mails from it.")


class EmailRequest(Strict):
    address: Annotated[str, Field(pattern=ADDRESS, max_length=254)]
    consent: Literal[True] = Field(description="the player asks for these e-mails")


class NotifySettings(BaseModel):
    email: str | None = Field(description="where notification e-mails go; null: none are sent")


def page(title: str, text: str, form: str = "") -> HTMLResponse:
    return HTMLResponse(
        f'<!doctype html><html lang="{current()}"><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<main><h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>{form}</main></html>"
    )


def notify_router(hub: Hub) -> APIRouter:
    router = APIRouter()
    store = hub.store

    @router.get("/api/me/notify", responses={401: {"model": Problem}})
    async def settings(player: Player = Depends(required_player)) -> NotifySettings:
        found = await asyncio.to_thread(store.read, subscription, player.id)
        return NotifySettings(email=found["address"] if found else None)

    @router.put("/api/me/notify/email", responses={**ERRORS, 401: {"model": Problem}, 403: {"model": Problem}})
    async def opt_in(body: EmailRequest, player: Player = Depends(required_player)) -> NotifySettings:
        await hub.writer.write(subscribe, player.id, body.address, current())
        return NotifySettings(email=body.address)

    @router.delete("/api/me/notify/email", responses={401: {"model": Problem}, 403: {"model": Problem}})
    async def opt_out(player: Player = Depends(required_player)) -> NotifySettings:
        await hub.writer.write(unsubscribe, player.id)
        return NotifySettings(email=None)

    @router.get(UNSUBSCRIBE_PATH, response_class=HTMLResponse, responses=REFUSED_IN_JSON)
    async def unsubscribe_page(token: TOKEN) -> HTMLResponse:
        form = (
            f'<form method="post" action="{UNSUBSCRIBE_PATH}?token={html.escape(token, quote=True)}">'
            f'<button type="submit">{html.escape(_(PAGE_TITLE))}</button></form>'
        )
        return page(_(PAGE_TITLE), _(PAGE_ASK), form)

    @router.post(UNSUBSCRIBE_PATH, response_class=HTMLResponse, responses=REFUSED_IN_JSON)
    async def one_click(token: TOKEN) -> HTMLResponse:
        key = await asyncio.to_thread(unsubscribe_key, store.engine)
        if not await hub.writer.write(unsubscribe_by_token, token, key):
            raise HTTPException(status_code=400, detail=_(PAGE_STALE))
        return page(_(PAGE_TITLE), _(PAGE_DONE))

    return router

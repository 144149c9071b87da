"""Notifications over HTTP.

- ``GET /api/me/notify``: the player's e-mail address for notifications, if they opted in.
- ``PUT /api/me/notify/email`` ``{"address", "consent": true}``: opt in (or change the address); the
  e-mails come in the page's language, once the address is confirmed: it is sent a link first.
- ``DELETE /api/me/notify/email``: opt out.
- ``GET /api/notify/unsubscribe?token=``: the page an e-mail's link opens, with one button; ``POST``
  with the same token (the button, or a mail client's one-click, RFC 8058) opts out. The token is
  its own authority (no session needed) and is signed: a forged or stale one changes nothing.
- ``GET /api/notify/confirm?token=``: the page the confirmation e-mail's link opens, with one
  button; ``POST`` with the same token confirms the address (a token of its own kind, likewise).
"""

from __future__ import annotations

import asyncio
import html
import logging
import smtplib
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from sqlalchemy import Connection

from ...i18n import N_, _, current
from ..hub import Hub
from ..players.identity import Player, required_player
from ..schema import ERRORS, Problem, Strict
from .email import (
    CONFIRM_PATH,
    UNSUBSCRIBE_PATH,
    EmailChannel,
    confirm_by_token,
    subscribe,
    subscription,
    unsubscribe,
    unsubscribe_by_token,
    unsubscribe_key,
)

log = logging.getLogger("codecrack.web")

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
CONFIRM_TITLE = N_("Confirm your e-mail address")
CONFIRM_ASK = N_("Send codecrack's notifications to this address?")
CONFIRM_DONE = N_("Confirmed: codecrack's notifications now come to this address.")


class EmailRequest(Strict):
    address: Annotated[str, Field(pattern=ADDRESS, max_length=254)]
    consent: Literal[True] = Field(description="the player asks for these e-mails")


class NotifySettings(BaseModel):
    email: str | None = Field(description="where notification e-mails go; null: none are sent")
    confirmed: bool = Field(False, description="the address was confirmed by its link: only then is it sent notices")


def page(title: str, text: str, form: str = "") -> HTMLResponse:
    return HTMLResponse(
        f'<!doctype html><html lang="{current()}"><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<main><h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>{form}</main></html>"
    )


def button_page(path: str, token: str, title: str, ask: str) -> HTMLResponse:
    """The page a link opens: one button that POSTs its token (a link prefetcher changes nothing)."""
    form = (
        f'<form method="post" action="{path}?token={html.escape(token, quote=True)}">'
        f'<button type="submit">{html.escape(title)}</button></form>'
    )
    return page(title, ask, form)


def notify_router(hub: Hub) -> APIRouter:
    router = APIRouter()
    store = hub.store
    mailer = EmailChannel(hub.config, store)

    @router.get("/api/me/notify", responses={401: {"model": Problem}})
    async def settings(player: Player = Depends(required_player)) -> NotifySettings:
        found = await asyncio.to_thread(store.read, subscription, player.id)
        return NotifySettings(
            email=found["address"] if found else None, confirmed=bool(found and found["confirmed_at"])
        )

    @router.put("/api/me/notify/email", responses={**ERRORS, 401: {"model": Problem}, 403: {"model": Problem}})
    async def opt_in(body: EmailRequest, player: Player = Depends(required_player)) -> NotifySettings:
        await hub.writer.write(subscribe, player.id, body.address, current())
        try:
            await mailer.ask_confirmation(player.id)
        except (OSError, smtplib.SMTPException):
            log.warning("could not send a confirmation e-mail", exc_info=True)
        return NotifySettings(email=body.address, confirmed=False)

    @router.delete("/api/me/notify/email", responses={401: {"model": Problem}, 403: {"model": Problem}})
    async def opt_out(player: Player = Depends(required_player)) -> NotifySettings:
        await hub.writer.write(unsubscribe, player.id)
        return NotifySettings(email=None, confirmed=False)

    async def follow(change: Callable[[Connection, str, str], bool], token: str, title: str, done: str) -> HTMLResponse:
        """A signed link's button: ``change`` applies the token (the page says ``done``), or the link is stale (400)."""
        key = await asyncio.to_thread(unsubscribe_key, store.engine)
        if not await hub.writer.write(change, token, key):
            raise HTTPException(status_code=400, detail=_(PAGE_STALE))
        return page(_(title), _(done))

    @router.get(UNSUBSCRIBE_PATH, response_class=HTMLResponse, responses=REFUSED_IN_JSON)
    async def unsubscribe_page(token: TOKEN) -> HTMLResponse:
        return button_page(UNSUBSCRIBE_PATH, token, _(PAGE_TITLE), _(PAGE_ASK))

    @router.post(UNSUBSCRIBE_PATH, response_class=HTMLResponse, responses=REFUSED_IN_JSON)
    async def one_click(token: TOKEN) -> HTMLResponse:
        return await follow(unsubscribe_by_token, token, PAGE_TITLE, PAGE_DONE)

    @router.get(CONFIRM_PATH, response_class=HTMLResponse, responses=REFUSED_IN_JSON)
    async def confirm_page(token: TOKEN) -> HTMLResponse:
        return button_page(CONFIRM_PATH, token, _(CONFIRM_TITLE), _(CONFIRM_ASK))

    @router.post(CONFIRM_PATH, response_class=HTMLResponse, responses=REFUSED_IN_JSON)
    async def confirm(token: TOKEN) -> HTMLResponse:
        return await follow(confirm_by_token, token, CONFIRM_TITLE, CONFIRM_DONE)

    return router

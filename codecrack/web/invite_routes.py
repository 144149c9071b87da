"""Inviting friends: ``GET /api/tables/{code}/invite``, a seated player's copy of the table's
invitation (the secret of its link, ``/t/CODE#invite=INVITE``: a friends' table gives its open seats
only to its holders); ``POST`` there, a seated player renews it (the old link stops working); and ``GET /api/tables/{code}/qr.svg``, the table's link as a QR code (SVG,
drawn on the server with segno; with the invitation for a seated player) for the invite panel."""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import APIRouter, Depends, HTTPException, Request, Response

from ..core.errors import OptionError
from ..i18n import _
from .schema import ERRORS, Invite, Problem
from .table import LiveTable
from .table_routes import bad_request, table_or_404
from .tokens import bearer_token, seat_of


def invite_router(hub: Any) -> APIRouter:
    router = APIRouter()

    def seated(table: LiveTable, token: str | None) -> bool:
        return seat_of(table, token, hub.config.token_hours) is not None

    async def seated_at(code: str, token: str | None) -> LiveTable:
        table = await table_or_404(hub, code)
        if not seated(table, token):
            raise HTTPException(status_code=403, detail=_("only a seated player (with their seat token) may invite"))
        return table

    @router.get("/api/tables/{code}/invite", responses={**ERRORS, 403: {"model": Problem}})
    async def invite(code: str, token: str | None = Depends(bearer_token)) -> Invite:
        table = await seated_at(code, token)
        return Invite(code=table.code, invite=table.row.invite)

    @router.post("/api/tables/{code}/invite", responses={**ERRORS, 403: {"model": Problem}})
    async def renew(code: str, token: str | None = Depends(bearer_token)) -> Invite:
        """A new invitation: the old link no longer seats anyone; seated players keep their seats."""
        table = await seated_at(code, token)
        try:
            return Invite(code=table.code, invite=await hub.renew_invite(table))
        except OptionError as error:
            raise bad_request(error) from None

    @router.get("/api/tables/{code}/qr.svg", responses=ERRORS, response_class=Response)
    async def qr(code: str, request: Request, token: str | None = Depends(bearer_token)) -> Response:
        table = await table_or_404(hub, code)
        link = f"{str(request.base_url).rstrip('/')}/t/{table.code}"
        if table.row.invite and seated(table, token):
            link += f"#invite={table.row.invite}"
        picture = io.BytesIO()
        segno.make(link, error="m").save(picture, kind="svg", scale=4, border=2, title=link)
        return Response(picture.getvalue(), media_type="image/svg+xml", headers={"cache-control": "no-store"})

    return router

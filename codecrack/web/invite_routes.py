"""Inviting friends: ``GET /api/tables/{code}/qr.svg``, the table's link as a QR code (SVG, drawn
on the server with segno), for the invite panel of a table with open seats."""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import APIRouter, HTTPException, Request, Response

from .schema import ERRORS, no_table


def invite_router(hub: Any) -> APIRouter:
    router = APIRouter()

    @router.get("/api/tables/{code}/qr.svg", responses=ERRORS, response_class=Response)
    async def qr(code: str, request: Request) -> Response:
        table = await hub.find(code)
        if table is None:
            raise HTTPException(status_code=404, detail=no_table(code))
        link = f"{str(request.base_url).rstrip('/')}/t/{table.code}"
        picture = io.BytesIO()
        segno.make(link, error="m").save(picture, kind="svg", scale=4, border=2, title=link)
        return Response(picture.getvalue(), media_type="image/svg+xml", headers={"cache-control": "no-store"})

    return router

"""The operator's HTTP side of ``codecrack admin``: closing a live table, which only the instances
serving it can do (every other admin command works on the database: :mod:`.admin`). Enabled only
when ``CODECRACK_ADMIN_TOKEN`` is set; a request proves it knows the token with
``Authorization: Bearer TOKEN``."""

from __future__ import annotations

from secrets import compare_digest
from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel, Field

from ..i18n import _
from .closing import close_live
from .schema import no_table
from .store import close_table
from .tokens import bearer_token

if TYPE_CHECKING:
    from .hub import Hub


class CloseRequest(BaseModel):
    reason: Annotated[str, Field(min_length=1, max_length=200)]


def admin_router(hub: Hub) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    def operator(token: str | None = Depends(bearer_token)) -> None:
        expected = hub.config.admin_token
        if expected is None:
            raise HTTPException(status_code=404, detail="Not Found")
        if token is None or not compare_digest(token.encode(), expected.encode()):
            raise HTTPException(status_code=403, detail=_("only the server's operator may do this"))

    @router.post("/api/tables/{code}/close", dependencies=[Depends(operator)])
    async def close(code: str, request: CloseRequest) -> dict[str, str]:
        """Close the table for good: stored as closed, its players told why, its sockets closed
        (on every instance: the others hear of it through Redis and re-read it)."""
        table = await hub.find(code)
        if table is None:
            raise HTTPException(status_code=404, detail=no_table(code))
        await hub.writer.write(close_table, table.code, request.reason)
        close_live(hub, table, request.reason)
        hub.fanout.changed(table)
        return {"code": table.code, "closed": request.reason}

    return router

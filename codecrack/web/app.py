"""The FastAPI app: the lobby's HTTP API, the live-play websocket and the static front end."""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy.exc import SQLAlchemyError

from ..core.errors import OptionError
from .catalog import catalog
from .config import WebConfig
from .hints import hint_for
from .hub import Hub
from .connections import Connection
from .table import LiveTable

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("codecrack.web")


class SeatPlan(BaseModel):
    kind: str = "human"
    agent: str | None = None
    name: str | None = None


class CreateTable(BaseModel):
    game: str
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatPlan]
    takeover: str | None = None
    sit: int | None = None       # claim this seat for the creator
    name: str = ""
    seed: int | None = None


class Join(BaseModel):
    seat: int
    name: str = ""


def bad_request(error: Exception) -> HTTPException:
    return HTTPException(status_code=400, detail=str(error))


async def storage_failed(request: Request, error: Exception) -> JSONResponse:
    """A database error: nothing was changed (every write is one transaction), so the client may retry."""
    log.error("storage failed on %s %s: %s", request.method, request.url.path, error)
    return JSONResponse({"detail": "the server could not store this; please try again"}, status_code=503)


def create_app(config: WebConfig | None = None) -> FastAPI:
    config = config or WebConfig()
    hub = Hub(config)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await hub.start()
        yield
        await hub.stop()

    app = FastAPI(title="codecrack", lifespan=lifespan)
    app.state.hub = hub
    app.add_exception_handler(SQLAlchemyError, storage_failed)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    async def table_or_404(code: str) -> LiveTable:
        table = await hub.get(code)
        if table is None:
            raise HTTPException(status_code=404, detail=f"no table {code!r}")
        return table

    @app.get("/", include_in_schema=False)
    @app.get("/t/{code}", include_in_schema=False)
    async def page(code: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return catalog()

    @app.get("/api/tables")
    async def tables() -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(hub.store.list_tables)
        return [hub.live[row.code].info() if row.code in hub.live else summary(row) for row in rows]

    @app.post("/api/tables")
    async def create(request: CreateTable) -> dict[str, Any]:
        players = request.players or len(request.seats)
        try:
            table = await hub.create(request.game, players, request.options,
                                     [s.model_dump() for s in request.seats], request.takeover, request.seed)
            token = None if request.sit is None else await hub.claim(table, request.sit, request.name)
        except OptionError as error:
            raise bad_request(error) from None
        return {"code": table.code, "seat": request.sit, "token": token, "table": table.info()}

    @app.get("/api/tables/{code}")
    async def show(code: str) -> dict[str, Any]:
        return (await table_or_404(code)).info()

    @app.post("/api/tables/{code}/join")
    async def join(code: str, request: Join) -> dict[str, Any]:
        table = await table_or_404(code)
        try:
            token = await hub.claim(table, request.seat, request.name)
        except OptionError as error:
            raise bad_request(error) from None
        return {"code": table.code, "seat": request.seat, "token": token}

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str) -> dict[str, Any]:
        try:
            fresh = await hub.rematch(await table_or_404(code))
        except OptionError as error:
            raise bad_request(error) from None
        return {"code": fresh.code, "table": fresh.info()}

    @app.get("/api/tables/{code}/replay")
    async def replay_frames(code: str, token: str | None = None) -> dict[str, Any]:
        table = await table_or_404(code)
        if not table.game.over:
            raise bad_request(OptionError("a game can be replayed once it is over"))
        seat = table.seat_for(token)
        return {"code": table.code, "seat": seat, "frames": await hub.replay_frames(table, seat)}

    @app.websocket("/ws/{code}")
    async def live(websocket: WebSocket, code: str, token: str | None = None) -> None:
        await websocket.accept()
        table = await hub.get(code, keep=True)
        if table is None:
            await websocket.send_json({"type": "error", "message": f"no table {code!r}"})
            await websocket.close(code=4404)
            return
        connection = Connection(table.seat_for(token), websocket, config.send_queue_limit, config.send_timeout)
        table.connect(connection)
        try:
            await connection.serve(converse(table, connection, websocket))
        except WebSocketDisconnect:
            pass
        finally:
            table.disconnect(connection)
            hub.unload_if_idle(table)

    return app


async def converse(table: LiveTable, connection: Connection, websocket: WebSocket) -> None:
    """Answer the client's messages, through the connection's queue, until it disconnects."""
    while True:
        reply = await handle(table, connection, await websocket.receive_text())
        if reply is not None:
            connection.push(reply)


async def handle(table: LiveTable, connection: Connection, text: str) -> dict[str, Any] | None:
    """Answer one client message: ``action``, ``hint`` or ``ping``."""
    try:
        message = json.loads(text)
        kind = message["type"]
    except (ValueError, TypeError, KeyError):
        return {"type": "error", "message": "a message must be JSON with a 'type'"}
    if kind == "ping":
        return {"type": "pong"}
    if connection.seat is None:
        return {"type": "error", "message": "spectators cannot act; take an open seat to play"}
    if kind == "action":
        refused = await table.submit(connection.seat, message.get("action"))
        return None if refused is None else {"type": "error", "message": refused}
    if kind == "hint":
        step, view = await table.seat_view(connection.seat)
        return {"type": "hint", "step": step, "hint": await hint_for(table.game, view, table.hub.hint_pool)}
    return {"type": "error", "message": f"unknown message type {kind!r}"}


def summary(row) -> dict[str, Any]:
    """A stored table that is not loaded: enough for the lobby's list."""
    seats = [{"kind": s["kind"], "agent": s.get("agent"), "name": s.get("name") or f"Seat {i + 1}",
              "claimed": s["kind"] == "ai", "connected": False, "bot": s.get("agent")}
             for i, s in enumerate(row.seats)]
    return {"code": row.code, "game": row.game, "players": row.players, "options": row.options,
            "seats": seats, "takeover": row.takeover, "over": row.finished, "result": row.result,
            "rematch": row.rematch}

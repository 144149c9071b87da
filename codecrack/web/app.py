"""The FastAPI app: the lobby's HTTP API, the live-play websocket and the static front end."""

# No ``from __future__ import annotations`` here: the body model of ``POST /api/tables`` is built
# when the app is (one variant per game), and FastAPI reads route annotations as real objects.

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from ..core.errors import OptionError, explain
from ..core.validation import problem
from ..i18n import N_, _, current
from .actions import refused_from_client
from .catalog import catalog
from .collector import SOCKETS
from .config import WebConfig
from .connections import Ack, Connection
from .hints import hint_for
from .hub import Hub
from .language import RequestLanguage, language_router, localized_games
from .limits import AddressCounter, RateWindow, TokenBucket
from .middleware import AsgiSocket, BodyLimit, RawWebsocket, SecurityHeaders
from .review_routes import review_router
from .schema import (
    ERRORS,
    Created,
    GameInfo,
    Joined,
    JoinRequest,
    Problem,
    Rematched,
    Replay,
    TableInfo,
    client_hello,
    create_table_model,
    no_table,
    read_client_message,
)
from .table import LiveTable
from .tokens import bearer_token, seat_of
from .tutorial_routes import tutorial_router

STATIC = Path(__file__).with_name("static")
TOO_BIG, POLICY = 1009, 1008  # websocket close codes: message too big, policy violation
HELLO_SECONDS = 10.0  # a new socket must say hello (with its token, or none) within this time
log = logging.getLogger("codecrack.web")


def address_of(connection: Request | WebSocket) -> str:
    """The client's address (the TCP peer, or the proxy's forwarded one when uvicorn trusts it)."""
    return connection.client.host if connection.client else "unknown"


def bad_request(error: Exception) -> HTTPException:
    return HTTPException(status_code=400, detail=explain(error))


async def storage_failed(request: Request, error: Exception) -> JSONResponse:
    """A database error: nothing was changed (every write is one transaction), so the client may retry."""
    log.error("storage failed on %s %s: %s", request.method, request.url.path, error)
    return JSONResponse({"detail": _("the server could not store this; please try again")}, status_code=503)


def create_app(config: WebConfig | None = None) -> FastAPI:
    hub = Hub(config or WebConfig())
    config = hub.config
    games = catalog()
    creations = RateWindow(config.tables_per_minute, 60.0)
    connections = AddressCounter(config.connections_per_address)
    CreateTable = create_table_model([game["name"] for game in games])

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await hub.start()
        yield
        await hub.stop()

    app = FastAPI(title="codecrack", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestLanguage)
    app.add_middleware(RawWebsocket)  # the last added is the outermost
    app.add_exception_handler(SQLAlchemyError, storage_failed)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(review_router(hub))
    app.include_router(tutorial_router(hub, lambda http, moment: creations.allow(address_of(http), moment)))
    app.include_router(language_router())

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        """Every malformed request is a 400 ``{"detail": "field: problem"}``, like the API's own errors."""
        where = {game["name"] for game in games} | {"body", "query", "path", "header"}
        return JSONResponse({"detail": problem(error.errors(), ignore=where)}, status_code=400)

    async def table_or_404(code: str) -> LiveTable:
        table = await hub.get(code)
        if table is None:
            raise HTTPException(status_code=404, detail=no_table(code))
        return table

    @app.get("/", include_in_schema=False)
    @app.get("/t/{code}", include_in_schema=False)
    async def page(code: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/games")
    async def list_games() -> list[GameInfo]:
        return localized_games(games, current())

    @app.get("/api/tables")
    async def tables() -> list[TableInfo]:
        rows = await asyncio.to_thread(hub.store.list_tables)
        stored = [row.code for row in rows if row.code not in hub.live]
        names = await asyncio.to_thread(hub.store.seat_names, stored)
        return [
            hub.live[row.code].info() if row.code in hub.live else summary(row, names.get(row.code, {})) for row in rows
        ]

    @app.post("/api/tables", responses={**ERRORS, 429: {"model": Problem}})
    async def create(request: CreateTable, http: Request) -> Created:
        if not creations.allow(address_of(http), asyncio.get_running_loop().time()):
            raise HTTPException(
                status_code=429,
                detail=_("at most {count} new tables per minute from one address").format(
                    count=config.tables_per_minute
                ),
            )
        if request.seed is not None and not hub.config.allow_seed:
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
            )
            token = None if request.sit is None else await hub.claim(table, request.sit, request.name)
        except OptionError as error:
            raise bad_request(error) from None
        return {"code": table.code, "seat": request.sit, "token": token, "table": table.info()}

    @app.get("/api/tables/{code}", responses=ERRORS)
    async def show(code: str) -> TableInfo:
        return (await table_or_404(code)).info()

    @app.post("/api/tables/{code}/join", responses=ERRORS)
    async def join(code: str, request: JoinRequest) -> Joined:
        table = await table_or_404(code)
        try:
            token = await hub.claim(table, request.seat, request.name)
        except OptionError as error:
            raise bad_request(error) from None
        return {"code": table.code, "seat": request.seat, "token": token}

    @app.post("/api/tables/{code}/rematch", responses={**ERRORS, 403: {"model": Problem}})
    async def rematch(code: str, token: str | None = Depends(bearer_token)) -> Rematched:
        table = await table_or_404(code)
        if seat_of(table, token, config.token_hours) is None:
            raise HTTPException(
                status_code=403, detail=_("only a seated player (with their seat token) may start a rematch")
            )
        try:
            fresh = await hub.rematch(table)
        except OptionError as error:
            raise bad_request(error) from None
        return {"code": fresh.code, "table": fresh.info()}

    @app.get("/api/tables/{code}/replay", responses=ERRORS)
    async def replay_frames(code: str, token: str | None = Depends(bearer_token)) -> Replay:
        table = await table_or_404(code)
        if not table.game.over:
            raise bad_request(OptionError(N_("a game can be replayed once it is over")))
        seat = seat_of(table, token, config.token_hours)
        return {"code": table.code, "seat": seat, "frames": await hub.replay_frames(table, seat)}

    @app.websocket("/ws/{code}")
    async def live(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        address = address_of(websocket)
        if not connections.enter(address):
            return await refuse(
                websocket,
                POLICY,
                _("at most {count} connections from one address").format(count=config.connections_per_address),
            )
        SOCKETS.opened += 1
        try:
            await play(websocket, AsgiSocket(websocket), code)
        finally:
            connections.leave(address)
            SOCKETS.closed += 1

    async def play(websocket: WebSocket, socket: AsgiSocket, code: str) -> None:
        table = await hub.get(code, keep=True, up_to_date=False)  # caught up after the hello
        if table is None:
            return await refuse(websocket, 4404, no_table(code))
        try:
            token = await asyncio.wait_for(hello_token(socket), HELLO_SECONDS)
        except WebSocketDisconnect:
            return
        except (ValueError, TimeoutError) as error:
            return await refuse(websocket, POLICY, str(error) or _("no hello: say hello with your token first"))
        seat = seat_of(table, token, config.token_hours)
        if seat is None and token and hub.cluster:  # perhaps claimed through another instance
            await hub.reread(table)
            seat = seat_of(table, token, config.token_hours)
        if seat is None and spectators(table) >= config.spectators_per_table:
            return await refuse(
                websocket,
                POLICY,
                _("this table already has {count} spectators").format(count=config.spectators_per_table),
            )
        connection = Connection(seat, socket, config.send_queue_limit, config.send_timeout)
        await hub.fresh(table)  # steps stored elsewhere while it waited for the hello
        table = await hub.kept(table)  # it may have been pushed out of the loaded tables meanwhile
        if table is None:  # and deleted, as a table nobody joined
            return await refuse(websocket, 4404, no_table(code))
        table.connect(connection)  # the newest connection of a seat wins: an older one is closed
        try:
            await connection.serve(converse(socket, table, connection))
        except WebSocketDisconnect:
            pass
        finally:
            table.disconnect(connection)
            hub.unload_if_idle(table)

    async def converse(socket: AsgiSocket, table: LiveTable, connection: Connection) -> None:
        """Answer the connection's messages, within the size and rate limits, until it closes."""
        clock = asyncio.get_running_loop().time
        bucket, throttled = TokenBucket(config.messages_per_second, config.message_burst, clock()), False
        while True:
            text = await next_text(socket)
            if text is not None and len(text.encode()) > config.max_ws_message_bytes:
                connection.push(
                    {
                        "type": "error",
                        "message": _("a message has at most {count} bytes").format(count=config.max_ws_message_bytes),
                    }
                )
                connection.end(TOO_BIG, "message too big")
                return
            if not bucket.take(clock()):
                if not throttled:  # one notice per burst of dropped messages, not one per message
                    connection.push(
                        {
                            "type": "error",
                            "message": _("too many messages: at most {count} per second; this one was dropped").format(
                                count=f"{config.messages_per_second:g}"
                            ),
                        }
                    )
                throttled = True
                continue
            throttled = False
            reply = await handle(table, connection, text)
            if reply is not None:
                connection.push(reply)

    return app


async def refuse(websocket: WebSocket, code: int, message: str) -> None:
    """Tell the client why, then close the socket."""
    await websocket.send_json({"type": "error", "message": message})
    await websocket.close(code=code)


def spectators(table: LiveTable) -> int:
    return sum(1 for connection in table.connections if connection.seat is None)


async def hello_token(socket: AsgiSocket) -> str | None:
    """The token of the socket's first message, ``{"type": "hello", "token": TOKEN or null}``;
    :class:`ValueError` if the first message is anything else."""
    text = await next_text(socket)
    try:
        return client_hello.validate_json(text or "").token
    except ValidationError as error:
        raise ValueError(
            _("the first message must be hello: {problem}").format(problem=problem(error.errors()))
        ) from None


async def next_text(socket: AsgiSocket) -> str | None:
    """The next text message; ``None`` for a binary one. Raises :class:`WebSocketDisconnect` at the end."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text")


async def handle(table: LiveTable, connection: Connection, text: str | None) -> dict[str, Any] | None:
    """Answer one client message: ``action``, ``hint``, ``ping`` or ``resync``."""
    if text is None:
        return {"type": "error", "message": _("binary frames are not accepted: send JSON text")}
    try:
        message = read_client_message(text)
    except ValidationError as error:
        return {"type": "error", "message": problem(error.errors(), skip=1)}
    if message.type == "ping":
        return {"type": "pong"}
    if message.type == "resync":
        return table.state_message(connection.seat)
    ref = message.ref if message.type == "action" else None
    if connection.seat is None:
        return refusal(_("spectators cannot act; take an open seat to play"), ref)
    if message.type == "action":
        ack = Ack(connection, ref) if ref is not None else None
        refused = refused_from_client(message.action) or await table.submit(connection.seat, message.action, ack=ack)
        return None if refused is None else refusal(_(refused), ref)  # BUSY, NOT_STORED
    step, view = await table.seat_view(connection.seat)
    return {
        "type": "hint",
        "step": step,
        "hint": await hint_for(table.game, view, table.hub.bots.work, table.hub.hint_pool),
    }


def refusal(message: str, ref: str | None) -> dict[str, Any]:
    """The ``error`` that refuses an action, with the action's ``ref`` if it carried one."""
    answer = {"type": "error", "message": message}
    return answer if ref is None else {**answer, "ref": ref}


def summary(row, names: dict[int, str]) -> dict[str, Any]:
    """A stored table that is not loaded: enough for the lobby's list. ``names`` are the names of
    the players who claimed a seat."""
    seats = [
        {
            "kind": s["kind"],
            "agent": s.get("agent"),
            "name": names.get(i) or s.get("name") or f"Seat {i + 1}",
            "claimed": s["kind"] == "ai" or i in names,
            "connected": False,
            "bot": s.get("agent"),
        }
        for i, s in enumerate(row.seats)
    ]
    return {
        "code": row.code,
        "game": row.game,
        "players": row.players,
        "options": row.options,
        "seats": seats,
        "takeover": row.takeover,
        "over": row.finished,
        "result": row.result,
        "rematch": row.rematch,
    }

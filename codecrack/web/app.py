"""The FastAPI app: the hub (the composition root), the middleware, the static front end, and
one router per job (tables, tutorials, reviews, languages...); live play's websocket is served
before any of them (:class:`CodecrackApp`, :class:`.live_routes.GameSockets`)."""

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import Receive, Scope, Send

from ..core.validation import problem
from ..i18n import _, current
from . import metrics
from .admin_routes import admin_router
from .catalog import catalog
from .config import WebConfig
from .daily_routes import daily_router
from .draining import Drain, Draining
from .game_assets import game_assets_router
from .health import health_router
from .hub import Hub
from .installable import installable_router
from .invite_routes import invite_router
from .language import RequestLanguage, language_router, localized_games
from .live_routes import GameSockets, game_socket
from .logs import RequestContext
from .match_routes import match_router
from .metrics import metrics_router
from .middleware import BodyLimit, SecurityHeaders, client_address, server_error
from .my_games import my_games_router
from .notify.push import WebPush
from .notify.routes import notify_router
from .players.install import install_players
from .push_routes import push_router
from .replays import replay_router
from .review_routes import review_router
from .schema import GameInfo
from .table_routes import table_router
from .tutorial_routes import tutorial_router

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("codecrack.web")


class CodecrackApp(FastAPI):
    """FastAPI, with each game websocket handed to :class:`.live_routes.GameSockets` before any
    layer of FastAPI's, Starlette's or the middleware (an idle socket holds none of their frames
    for its life: docs/benchmarks.md, "Idle sockets")."""

    game_sockets: GameSockets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        code = game_socket(scope)
        if code is None:
            return await super().__call__(scope, receive, send)
        # starlette types the messages as mappings; uvicorn's are the dicts live_routes reads
        serving = self.game_sockets.serve(scope, receive, send, code)  # type: ignore[arg-type]
        del scope  # this frame waits as long as the socket is open: only the socket's serving keeps the scope
        return await serving


def address_of(http: Request) -> str:
    """The client's address (the TCP peer, or the proxy's forwarded one when uvicorn trusts it)."""
    return client_address(http.scope)


async def storage_failed(request: Request, error: Exception) -> JSONResponse:
    """A database error: nothing was changed (every write is one transaction), so the client may retry."""
    log.error("storage failed on %s %s: %s", request.method, request.url.path, error)
    return JSONResponse({"detail": _("the server could not store this; please try again")}, status_code=503)


def create_app(config: WebConfig | None = None) -> CodecrackApp:
    hub = Hub(config or WebConfig())
    push = WebPush(hub)
    hub.notifier.plug(push)
    games = catalog()
    creations = hub.fanout.window("tables", hub.config.tables_per_minute, 60.0)

    async def may_create(http: Request) -> bool:
        return await creations.allow(address_of(http))

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await hub.start()
        await push.start()
        lag = asyncio.get_running_loop().create_task(metrics.watch_loop_lag()) if hub.config.metrics else None
        yield
        if lag:
            lag.cancel()
        await hub.stop()

    app = CodecrackApp(title="codecrack", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.push = push
    # The tables' routes first: a request is matched against each included router in turn (each
    # router's routes, twice: to select, then to handle), and creating and joining tables is the
    # API's busiest path. No other route's path is one of theirs (docs/benchmarks.md, issue 26).
    app.include_router(table_router(hub, [game["name"] for game in games], address_of, may_create))
    install_players(app, hub)
    app.state.drain = Drain()
    app.add_middleware(Draining, drain=app.state.drain)
    app.add_middleware(BodyLimit, max_bytes=hub.config.max_body_bytes, timeout=hub.config.body_timeout)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestLanguage)
    app.add_middleware(RequestContext)
    app.game_sockets = GameSockets(hub, app.state.drain)
    app.add_exception_handler(SQLAlchemyError, storage_failed)
    app.add_exception_handler(Exception, server_error)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(review_router(hub))
    app.include_router(replay_router(hub, address_of))
    app.include_router(tutorial_router(hub, may_create))
    app.include_router(language_router())
    app.include_router(game_assets_router())
    app.include_router(installable_router())
    app.include_router(push_router(hub, push))
    app.include_router(daily_router(hub))
    app.include_router(invite_router(hub))
    app.include_router(match_router(hub, address_of))
    app.include_router(my_games_router(hub))
    app.include_router(notify_router(hub))
    app.include_router(health_router(hub, app.state.drain))
    app.include_router(admin_router(hub))
    metrics.on = hub.config.metrics
    if hub.config.metrics:
        app.include_router(metrics_router(hub, app.state.drain))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        """Every malformed request is a 400 ``{"detail": "field: problem"}``, like the API's own errors."""
        where = {game["name"] for game in games} | {"body", "query", "path", "header"}
        return JSONResponse({"detail": problem(error.errors(), ignore=where)}, status_code=400)

    @app.get("/", include_in_schema=False)
    @app.get("/t/{code}", include_in_schema=False)
    @app.get("/daily", include_in_schema=False)
    async def page(code: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/games", response_model=list[GameInfo])
    async def list_games() -> list[dict[str, Any]]:
        return localized_games(games, current())

    return app

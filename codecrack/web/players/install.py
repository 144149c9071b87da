"""``install_players``: the players' store, CSRF guard, routes and rating hook on the app."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from .account_routes import account_router
from .csrf import CsrfGuard
from .identity import COOKIE, Players, csrf_token
from .passkey_routes import passkey_router
from .profile_routes import profile_router
from .rating_routes import rating_router
from .ratings import Rater
from .routes import players_router


def install_players(app: FastAPI, hub: Any) -> None:
    """Players on ``app``: the store (``app.state.players``), the CSRF guard and the routes. Call it
    before the app's other middleware is added, so that the guard runs inside them."""
    app.state.players = Players(hub)
    app.add_middleware(CsrfGuard, cookie=COOKIE, token=csrf_token)
    app.include_router(players_router(hub, app.state.players))
    app.include_router(account_router(hub, app.state.players))
    app.include_router(passkey_router(hub, app.state.players))
    app.state.rater = Rater(hub)
    app.include_router(rating_router(hub))
    app.include_router(profile_router(hub))

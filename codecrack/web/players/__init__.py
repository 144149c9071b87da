"""Players: who a browser is across tables (a guest, or an account), held by a server-side session.

- :mod:`.identity`: players and their sessions in the database; ``current_player`` for a route,
  ``socket_player`` for a websocket.
- :mod:`.csrf`: every cookie-authenticated state change must come from this site's own pages.
- :mod:`.accounts`: handles, argon2id passwords, sign-in throttling; :mod:`.account_routes` over HTTP.
- :mod:`.routes`: ``/api/me`` and the player's seats.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from .account_routes import account_router
from .csrf import CsrfGuard
from .identity import COOKIE, Players, csrf_token
from .routes import players_router


def install_players(app: FastAPI, hub: Any) -> None:
    """Players on ``app``: the store (``app.state.players``), the CSRF guard and the routes. Call it
    before the app's other middleware is added, so that the guard runs inside them."""
    app.state.players = Players(hub)
    app.add_middleware(CsrfGuard, cookie=COOKIE, token=csrf_token)
    app.include_router(players_router(hub, app.state.players))
    app.include_router(account_router(hub, app.state.players))

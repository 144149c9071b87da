"""Web Push over HTTP (the channel itself: :mod:`codecrack.web.notify.push`).

- ``GET /api/push/key``: ``{"key"}``, the server's VAPID public key, for ``pushManager.subscribe``.
- ``POST /api/push/subscriptions`` ``{"endpoint", "keys": {"p256dh", "auth"}}``: the session's
  player opts in on this browser (a cookie-authenticated change: CSRF as every other).
- ``DELETE /api/push/subscriptions`` ``{"endpoint"}``: opts out on this browser.
- ``POST /api/push/unsubscribe`` ``{"endpoint"}``: the one-click unsubscribe of a notification
  (its "Stop" button, from the service worker, without the cookie): knowing a subscription's
  endpoint is being that browser, so it needs no session.
"""

from fastapi import APIRouter, Depends, HTTPException
from pydantic import Field

from ..i18n import current
from .hub import Hub
from .notify.push import WebPush, forget_endpoint, subscribe, subscription_problem, unsubscribe
from .players.identity import Player, required_player
from .schema import ERRORS, Problem, Strict


class PushKeys(Strict):
    p256dh: str = Field(max_length=100)
    auth: str = Field(max_length=40)


class PushSubscription(Strict):
    endpoint: str = Field(max_length=1000)
    keys: PushKeys


class PushEndpoint(Strict):
    endpoint: str = Field(max_length=1000)


def push_router(hub: Hub, push: WebPush) -> APIRouter:
    router = APIRouter()

    @router.get("/api/push/key")
    async def key() -> dict[str, str]:
        return {"key": push.key}

    @router.post("/api/push/subscriptions", responses={**ERRORS, 401: {"model": Problem}})
    async def opt_in(request: PushSubscription, player: Player = Depends(required_player)) -> dict[str, bool]:
        endpoint, keys = request.endpoint, request.keys
        problem = subscription_problem(endpoint, keys.p256dh, keys.auth, push.services)
        if problem:
            raise HTTPException(status_code=400, detail=problem)
        await hub.writer.write(subscribe, player.id, endpoint, keys.p256dh, keys.auth, current())
        return {"subscribed": True}

    @router.delete("/api/push/subscriptions", responses={**ERRORS, 401: {"model": Problem}})
    async def opt_out(request: PushEndpoint, player: Player = Depends(required_player)) -> dict[str, bool]:
        await hub.writer.write(unsubscribe, player.id, request.endpoint)
        return {"subscribed": False}

    @router.post("/api/push/unsubscribe", responses=ERRORS)
    async def one_click(request: PushEndpoint) -> dict[str, bool]:
        await hub.writer.write(forget_endpoint, request.endpoint)
        return {"subscribed": False}

    return router

"""Going away gracefully (``SIGTERM``, a rolling restart): an instance drains before it exits.

On ``SIGTERM`` (or ``SIGINT``) ``codecrack serve``:

1. marks the instance as draining: ``/readyz`` fails, :class:`Draining` refuses new tables (503)
   and :class:`.live_routes.GameSockets` new game sockets (closed with 1012) that still reach it on
   an open connection;
2. stops listening (uvicorn), so the load balancer sends new connections to another instance;
3. closes every game socket with code 1012 ("service restart"): clients reconnect at once,
   through the load balancer, to an instance that serves on;
4. waits for the requests and actions under way (an action being written is committed, and its
   player acknowledged, before its socket's task ends), then stops the hub: the writer commits what
   is queued and, with Redis, the table leases are released at once so another instance takes
   them and resumes their clocks;
5. exits, at the latest ``drain_seconds`` (``CODECRACK_DRAIN_SECONDS``, 20 s) after the signal:
   past it, what still runs is cancelled, and a process still alive a few seconds later is ended.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from ..i18n import N_, _
from .middleware import send_json

log = logging.getLogger("codecrack.web")
RESTARTING = 1012  # websocket close code: service restart (the client reconnects elsewhere)
HARD_STOP_SECONDS = 5.0  # past the deadline, a process still alive is ended this much later
RESTARTING_TEXT = N_("this server is restarting; please try again")


@dataclass
class Drain:
    """Whether this instance is shutting down: while it is, its readiness check fails."""

    active: bool = False


class Draining:
    """ASGI middleware: while the instance drains, no new table."""

    def __init__(self, app: ASGIApp, drain: Drain) -> None:
        self.app, self.drain = app, drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.drain.active
            and scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"] == "/api/tables"
        ):
            await send_json(send, 503, {"detail": _(RESTARTING_TEXT)})
            return
        await self.app(scope, receive, send)


class DrainingServer(uvicorn.Server):
    """uvicorn's server, which marks ``drain`` at the first signal and exits within ``seconds``."""

    def __init__(self, config: uvicorn.Config, drain: Drain, seconds: float) -> None:
        super().__init__(config)
        self.drain, self.seconds = drain, seconds

    def handle_exit(self, sig: int, frame: Any) -> None:
        if not self.drain.active:
            self.drain.active = True
            log.info("draining: no new tables or sockets; exiting within %g s", self.seconds)
            guard = threading.Timer(self.seconds + HARD_STOP_SECONDS, os._exit, (1,))
            guard.daemon = True
            guard.start()
        super().handle_exit(sig, frame)

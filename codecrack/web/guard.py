"""uvicorn's HTTP protocol with the guards a public server needs against slow and idle clients.

- A request's headers must arrive within ``header_timeout`` of its first byte (and a new connection
  must start one within that time): a client that drips its headers, or connects and says
  nothing, is cut off (uvicorn has no such timeout; its keep-alive timeout covers only the pause
  between two requests: ``idle_timeout``).
- At most ``http_connections_per_address`` open HTTP connections per client address (the TCP peer;
  a trusted proxy in front is not counted: it speaks for many clients). One more is closed at once.

A connection upgraded to a websocket leaves this count: websockets have their own cap per address
(``connections_per_address``, counted by the app).
"""

from __future__ import annotations

import logging
from asyncio import TimerHandle
from typing import TYPE_CHECKING, Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

if TYPE_CHECKING:
    from .config import WebConfig

log = logging.getLogger("codecrack.web")


class GuardedHttp(HttpToolsProtocol):
    """``codecrack serve``'s HTTP protocol. Its limits are the process's (:meth:`configure`; a
    worker process of ``--workers`` reads them from its ``CODECRACK_*`` environment)."""

    limits: ClassVar[tuple[float, int, frozenset[str]] | None] = None  # header timeout, cap, trusted proxies
    open: ClassVar[dict[str, int]] = {}  # this process's open HTTP connections per address
    full: ClassVar[set[str]] = set()  # addresses at their cap (logged once until below it again)

    @classmethod
    def configure(cls, config: WebConfig) -> tuple[float, int, frozenset[str]]:
        cls.limits = (config.header_timeout, config.http_connections_per_address, frozenset(config.proxies()))
        return cls.limits

    def connection_made(self, transport: Any) -> None:
        limits = GuardedHttp.limits
        if limits is None:
            from .config import WebConfig

            limits = GuardedHttp.configure(WebConfig())
        self.header_timeout, self.per_address, trusted = limits
        super().connection_made(transport)
        self.address = self.client[0] if self.client else "unknown"
        self.counted = self.address not in trusted
        self.deadline: TimerHandle | None = None
        if self.counted:
            if GuardedHttp.open.get(self.address, 0) >= self.per_address:
                self.counted = False
                if self.address not in GuardedHttp.full:
                    GuardedHttp.full.add(self.address)
                    log.warning("%s has %d open HTTP connections: refusing more", self.address, self.per_address)
                transport.abort()
                return
            GuardedHttp.open[self.address] = GuardedHttp.open.get(self.address, 0) + 1
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._leave()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._leave()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self.deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        deadline: TimerHandle | None = getattr(self, "deadline", None)
        if deadline is not None:
            deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            self.transport.abort()

    def _leave(self) -> None:
        if getattr(self, "counted", False):
            self.counted = False
            left = GuardedHttp.open[self.address] - 1
            if left:
                GuardedHttp.open[self.address] = left
            else:
                del GuardedHttp.open[self.address]
            GuardedHttp.full.discard(self.address)

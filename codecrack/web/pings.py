"""uvicorn's websocket protocol with each connection's keepalive pings at a phase of its own.

uvicorn pings each websocket ``ws_ping_interval`` seconds after it opens, then that long after
each pong. Sockets that open together (a crowd arriving, a restart, the load harness's
``--open-first``) are pinged together, every interval, for as long as they stay: thousands of
pings and pongs in one turn of the event loop, a stall for every player. Here each connection's
first ping comes at a random moment within the first interval, so the pings spread evenly; every
later one comes as in uvicorn. No ping comes later than it would have: a dead connection is found
as soon as before, or sooner. The pings carry nothing from any game.
"""

from __future__ import annotations

import random

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class SpreadPings(WebSocketsSansIOProtocol):
    """The websocket protocol of ``uvicorn --ws auto`` with a spread first ping."""

    def start_keepalive(self) -> None:
        if self.ping_interval is not None and self.ping_interval > 0:
            first = random.uniform(0.0, self.ping_interval)
            self.ping_timer = self.loop.call_later(first, self.send_keepalive_ping)

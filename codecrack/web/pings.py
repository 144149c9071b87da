"""Every websocket's keepalive pings on one timer of the server's (:class:`Keepalive`).

uvicorn keeps a timer of the event loop per connection (its next ping, or the deadline of the pong
it waits for): 0.6 KB a socket for its life, and three timers made and one cancelled per ping.
Here a server's sockets wait in slots of a short ``tick``, one list per slot: a socket is due to be
pinged in the slot that starts at or before its time, and closed as dead (1011) in the slot that
starts at or after its pong's deadline; one timer of the loop runs the due slots, a tick apart,
while any socket waits. So no ping comes later than uvicorn's would, and no connection is closed
sooner than ``ws_ping_timeout`` after its ping. Sockets that open together (a crowd arriving, a
restart, the load harness's ``--open-first``) would be pinged together, every interval, for as long
as they stay: each connection's first ping comes at a random moment within the first interval, so
the pings spread evenly (a slot holds ``tick / interval`` of the sockets); every later one comes
``ws_ping_interval`` after the one before, as in uvicorn.

A ping asks "are you there?": a client that sent a message within the last interval has just
answered it. So a ping that falls due then is put off until an interval after that message, and a
player who acts every few seconds is never pinged (at human pace a ping and its pong cost about a
third as much as the actions themselves: docs/benchmarks.md). A silent connection is pinged an
interval after it fell silent, and closed ``ws_ping_timeout`` later if no pong comes: a dead client
is found an interval plus the timeout after it was last heard. The pings carry nothing from any game.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import struct
from typing import Protocol

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame

log = logging.getLogger("uvicorn.error")
TICK = 0.1  # seconds between the runs of the due slots, at most (a twentieth of a shorter interval)


class Pinged(Protocol):
    keepalive_slot: list[Pinged] | None  # the slot it waits in

    def keepalive_due(self) -> None: ...


class Keepalive:
    """A server's sockets' next pings and pong deadlines, in slots of ``tick`` seconds of the loop's clock."""

    def __init__(self, loop: asyncio.AbstractEventLoop, interval: float | None, timeout: float | None) -> None:
        self.loop = loop
        self.tick = min([TICK] + [seconds / 20 for seconds in (interval, timeout) if seconds])
        self.slots: dict[int, list[Pinged]] = {}
        self.running: list[Pinged] | None = None  # the slot being run
        self.timer: asyncio.TimerHandle | None = None
        self.timer_for = 0  # the number of the slot the timer starts

    def ping_at(self, socket: Pinged, when: float) -> None:
        """Run ``socket.keepalive_due`` in the slot that starts at or before ``when`` (a ping)."""
        self._wait(socket, math.floor(when / self.tick))

    def deadline_at(self, socket: Pinged, when: float) -> None:
        """Run ``socket.keepalive_due`` in the slot that starts at or after ``when`` (a pong's deadline)."""
        self._wait(socket, math.ceil(when / self.tick))

    def forget(self, socket: Pinged) -> None:
        slot, socket.keepalive_slot = socket.keepalive_slot, None
        if slot is not None and slot is not self.running:
            slot.remove(socket)

    def _wait(self, socket: Pinged, number: int) -> None:
        self.forget(socket)
        slot = self.slots.get(number)
        if slot is None:
            slot = self.slots[number] = []
        slot.append(socket)
        socket.keepalive_slot = slot
        if self.timer is None:
            self._start(math.floor(self.loop.time() / self.tick) + 1)

    def _start(self, number: int) -> None:
        """Run the slots up to ``number`` when it starts."""
        self.timer_for = number
        self.timer = self.loop.call_at(number * self.tick, self._run)

    def _run(self) -> None:
        """Run every slot that has started, in order; then wait for the next, while any socket
        waits. One timer at a time: ``self.timer`` stays set while the slots run."""
        now = max(self.timer_for, math.floor(self.loop.time() / self.tick))  # the clock's float may round down
        for number in sorted(number for number in self.slots if number <= now):
            slot = self.running = self.slots.pop(number)
            for socket in slot:
                if socket.keepalive_slot is slot:  # not forgotten by an earlier one's doing
                    socket.keepalive_slot = None
                    try:
                        socket.keepalive_due()
                    except Exception:  # that socket's fault, as in a timer of its own: the others go on
                        log.exception("a keepalive ping failed")
        self.running = self.timer = None
        if self.slots:
            self._start(now + 1)


class SharedPings(WebSocketsSansIOProtocol):
    """The websocket protocol of ``uvicorn --ws auto`` with its keepalive on the server's
    :class:`Keepalive` (``keepalive``, given by the subclass) instead of a timer of its own (the
    ``ping_timer`` and ``pong_timer`` uvicorn names stay ``None``), and no ping to a client heard
    from within the interval."""

    keepalive: Keepalive
    keepalive_slot: list[Pinged] | None
    heard_at = float("-inf")  # when the client's last message came (loop time); set per socket on receipt

    def start_keepalive(self) -> None:
        if self.ping_interval is not None and self.ping_interval > 0:
            self.keepalive.ping_at(self, self.loop.time() + random.uniform(0.0, self.ping_interval))

    def stop_keepalive(self) -> None:
        self.keepalive.forget(self)
        self.pending_ping_payload = None

    def schedule_ping(self) -> None:
        assert self.ping_interval is not None
        self.keepalive.ping_at(self, self.ping_sent_at + self.ping_interval)  # uvicorn's interval - rtt from now

    def keepalive_due(self) -> None:
        """Its slot has come: ping it (unless the client was heard from within the interval: then
        look again an interval after it was last heard), or, if its last ping is still unanswered,
        close it as dead."""
        if self.pending_ping_payload is not None:
            self.keepalive_timeout()
            return
        interval = self.ping_interval
        if interval is not None and not self.close_sent:
            due = self.heard_at + interval
            if due > self.loop.time() + self.keepalive.tick:  # else its slot is this one
                self.keepalive.ping_at(self, due)
                return
        self.send_keepalive_ping()

    def send_receive_event_to_app(self) -> None:
        """A whole message came (a pong does not count: a silent socket's pings keep their rhythm)."""
        self.heard_at = self.loop.time()
        super().send_receive_event_to_app()

    def send_keepalive_ping(self) -> None:
        if self.close_sent or self.transport.is_closing():
            return
        # a random payload identifies this ping: handle_pong ignores stale or unsolicited pongs
        self.pending_ping_payload = struct.pack("!I", random.getrandbits(32))
        self.ping_sent_at = self.loop.time()
        self.conn.send_ping(self.pending_ping_payload)
        self.transport.write(b"".join(self.conn.data_to_send()))
        if self.ping_timeout is not None:
            self.keepalive.deadline_at(self, self.ping_sent_at + self.ping_timeout)
        else:
            self.schedule_ping()

    def handle_pong(self, event: Frame) -> None:
        if self.pending_ping_payload is None or bytes(event.data) != self.pending_ping_payload:
            return
        self.last_ping_rtt = self.loop.time() - self.ping_sent_at
        self.pending_ping_payload = None
        if self.ping_timeout is not None:  # else the next ping is already waiting
            self.schedule_ping()

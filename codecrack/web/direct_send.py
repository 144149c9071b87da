"""uvicorn's websocket protocol (with spread pings: :mod:`.pings`) that can also write a text
message at once, from the caller's own turn of the event loop.

Through ASGI, every message of live play costs a task's wake-up (the connection's writer) and a
chain of coroutines down to the protocol, which frames it through the websockets library. Here
the protocol offers a plain function, in the websocket's scope under :data:`SEND_NOW` (in
``extensions``, as ``{"send": function}``: ASGI gives each extension as a dict), that frames an unfragmented text message and writes it to the transport, when
the socket is open, no compression was agreed and the transport holds nothing unsent (the
kernel took every earlier write: the client reads). Otherwise it declines, and the message takes
the connection's queue and the ASGI ``send`` as before, which handle every such case: so a
client that does not read still fills its connection's queue, and is closed as too slow, as soon
as before.
The frame is made by the websockets library's own connection (``send_text``), as uvicorn does.

It also keeps an idle socket small (docs/benchmarks.md, "Idle sockets"): its incoming messages wait
in an :class:`Inbox` (a list and, while the app waits, one future) instead of an ``asyncio.Queue``
(three deques and an event: 3 KB), its flag of a writable transport is a :class:`Writable` (no
deque), the handshake's headers are let go once the socket is open: the request's and the
response's, and the scope's copy (the app reads them before it accepts the socket), and what every
socket of a server shares (its settings, its sets of connections and tasks) is one
:class:`ServerWide` object read through, not 13 attributes of each socket: CPython shares the keys
of an object's dict for up to 30 attributes, and uvicorn's 35 cost 1.5 KB a socket.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn._types import ASGIReceiveEvent, ASGISendEvent
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from .pings import SpreadPings

SEND_NOW = "codecrack.send_now"  # the scope's extension: {"send": a function(text) -> bool, True once written}


class Inbox:
    """What uvicorn's protocol asks of its ``asyncio.Queue`` of incoming events (``put_nowait``,
    ``get`` by the one app task, ``empty``). Unbounded like it: the protocol stops reading the
    socket while an event waits."""

    __slots__ = ("events", "waiter")

    def __init__(self) -> None:
        self.events: list[ASGIReceiveEvent] = []
        self.waiter: asyncio.Future[None] | None = None

    def put_nowait(self, event: ASGIReceiveEvent) -> None:
        self.events.append(event)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def empty(self) -> bool:
        return not self.events

    async def get(self) -> ASGIReceiveEvent:
        while not self.events:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.events.pop(0)


class Writable:
    """What uvicorn's protocol asks of its ``asyncio.Event`` of a writable transport (``set``,
    ``clear``, ``is_set``, ``wait``), with no deque of waiters while none waits."""

    __slots__ = ("open", "waiters")

    def __init__(self) -> None:
        self.open = True
        self.waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self.open

    def set(self) -> None:
        self.open = True
        waiters, self.waiters = self.waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self.open = False

    async def wait(self) -> bool:
        if self.open:
            return True
        waiter = asyncio.get_running_loop().create_future()
        if self.waiters is None:
            self.waiters = []
        self.waiters.append(waiter)
        try:
            await waiter
        finally:
            if self.waiters is not None and waiter in self.waiters:
                self.waiters.remove(waiter)
        return True


class ServerWide:
    """What uvicorn's protocol copies onto each of its sockets and is the same for every socket of
    a server: read through from here (:class:`DirectSend`'s properties)."""

    __slots__ = ("config", "state", "app_state", "loop")

    def __init__(self, config: Config, state: ServerState, app_state: dict[str, Any], loop: asyncio.AbstractEventLoop):
        self.config, self.state, self.app_state, self.loop = config, state, app_state, loop


class DirectSend(SpreadPings):
    """The websocket protocol of ``codecrack serve``: spread pings, :meth:`send_now`, and a small
    idle socket."""

    logger = logging.getLogger("uvicorn.error")
    close_timeout = 10.0
    config = property(lambda self: self.wide.config)
    app = property(lambda self: self.wide.config.loaded_app)
    loop = property(lambda self: self.wide.loop)
    root_path = property(lambda self: self.wide.config.root_path)
    asgi_version = property(lambda self: self.wide.config.asgi_version)
    app_state = property(lambda self: self.wide.app_state)
    connections = property(lambda self: self.wide.state.connections)
    tasks = property(lambda self: self.wide.state.tasks)
    default_headers = property(lambda self: self.wide.state.default_headers)
    ping_interval = property(lambda self: self.wide.config.ws_ping_interval)
    ping_timeout = property(lambda self: self.wide.config.ws_ping_timeout)

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        """uvicorn's ``WebSocketsSansIOProtocol.__init__`` (its per-socket state, in its order),
        without the copies of what the server shares (tests/web/test_direct_send.py checks that
        both have the same attributes)."""
        if not config.loaded:
            config.load()
        self.wide = ServerWide(config, server_state, app_state, _loop or asyncio.get_event_loop())
        self.transport: asyncio.Transport = None  # type: ignore[assignment]
        self.server: tuple[str, int | None] | None = None
        self.client: tuple[str, int] | None = None
        self.scheme = None  # type: ignore[assignment]
        # duck-typed stand-ins for what uvicorn declares as an asyncio.Queue and an asyncio.Event
        self.queue = Inbox()  # type: ignore[assignment]
        self.handshake_initiated = False
        self.handshake_complete = False
        self.close_sent = False
        self.disconnected = False
        self.close_timer: asyncio.TimerHandle | None = None
        self.initial_response: tuple[int, list[tuple[str, str]], bytes] | None = None
        extensions = []
        if config.ws_per_message_deflate:
            extensions = [
                ServerPerMessageDeflateFactory(
                    server_max_window_bits=12, client_max_window_bits=12, compress_settings={"memLevel": 5}
                )
            ]
        self.conn = ServerProtocol(extensions=extensions, max_size=config.ws_max_size, logger=self.logger)
        self.read_paused = False
        self.writable = Writable()  # type: ignore[assignment]
        self.ping_timer: asyncio.TimerHandle | None = None
        self.pong_timer: asyncio.TimerHandle | None = None
        self.pending_ping_payload: bytes | None = None
        self.ping_sent_at = 0.0
        self.last_ping_rtt = 0.0
        self.frames: list[bytes] = []
        self.curr_msg_data_type = "bytes"  # type: ignore[assignment]
        # set by the handshake: named here, so that the class's shared keys hold every name from the
        # first socket on (each new object takes a slot of them: a name first set later, once they
        # are used up, turns that object's attributes into a dict of its own)
        self.request = None  # type: ignore[assignment]
        self.response = None  # type: ignore[assignment]
        self.scope = None  # type: ignore[assignment]

    async def send(self, message: ASGISendEvent) -> None:
        opening = not self.handshake_complete
        await super().send(message)
        if opening and self.handshake_complete:
            # the handshake's, read only before the socket opens (the websockets library's parser
            # keeps the request it parsed for the connection's life: its headers are emptied)
            self.request.headers.clear()
            self.response.headers.clear()
            self.request = self.response = None  # type: ignore[assignment]
            self.scope["headers"] = []

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:
            self.scope["extensions"][SEND_NOW] = {"send": self.send_now}

    def send_receive_event_to_app(self) -> None:
        """A text message that is not UTF-8 closes the socket with 1007, as uvicorn does, but
        logged as the client's fault (one info line), not as an error with a traceback."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = b"".join(self.frames)
            if not data.isascii() and not _utf8(data):
                self.frames = []
                self.logger.info("%s:%d - invalid UTF-8 in a text message: closed (1007)", *(self.client or ("?", 0)))
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    def connection_lost(self, exc: Exception | None) -> None:
        scope = self.scope  # none when uvicorn refused the handshake
        if scope is not None:
            scope["extensions"].pop(SEND_NOW, None)  # it holds self, the scope's holder: no cycle
        super().connection_lost(exc)

    def send_now(self, text: str) -> bool:
        """Write ``text`` as one message now, if the socket allows it plainly; ``False`` (and
        nothing written) if it is not open, compression was agreed, or the transport holds
        unsent data (its writes may be paused)."""
        if (
            self.close_sent
            or self.disconnected
            or not self.handshake_complete
            or self.conn.extensions
            or self.conn.state is not State.OPEN
            or not self.writable.is_set()
            or self.transport.is_closing()
            or self.transport.get_write_buffer_size()
        ):
            return False
        self.conn.send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


def _utf8(data: bytes) -> bool:
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True

"""uvicorn's websocket protocol (with its keepalive pings on one timer: :mod:`.pings`) that can also write a text
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
The frame is made here (:func:`text_frame`), byte for byte as the websockets library makes it,
when the library has nothing of its own waiting to be written.

It also keeps an idle socket small (docs/benchmarks.md, "Idle sockets"): its incoming messages wait
in an :class:`Inbox` (a list and, while the app waits, one future) instead of an ``asyncio.Queue``
(three deques and an event: 3 KB), and ``receive`` returns that future itself (no coroutine of
the protocol's held while the app waits); once open it reads frames with a parser that no longer
keeps the handshake's request (:func:`parser_without_request`); its flag of a writable transport is a :class:`Writable` (no
deque), the handshake's headers are let go once the socket is open: the request's and the
response's, and the scope's copy (the app reads them before it accepts the socket), and then the
scope itself (the app keeps it as long as it needs it), and what every
socket of a server shares (its settings, its sets of connections and tasks) is one
:class:`ServerWide` object read through, not 13 attributes of each socket: CPython shares the keys
of an object's dict for up to 30 attributes, and uvicorn's 35 cost 1.5 KB a socket.
"""

from __future__ import annotations

import asyncio
import logging
import types
from collections.abc import Generator
from typing import Any, cast

from uvicorn._types import ASGIReceiveEvent, ASGISendEvent
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.http11 import Request
from websockets.protocol import Protocol, State
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

from .pings import Keepalive, SharedPings

SEND_NOW = "codecrack.send_now"  # the scope's extension: {"send": a function(text) -> bool, True once written}


class Inbox:
    """What uvicorn's protocol asks of its ``asyncio.Queue`` of incoming events (``put_nowait``,
    ``empty``), and :meth:`next` for :meth:`DirectSend.receive`: the next event as a future, handed
    straight to the app's waiting future when it waits (no coroutine of its own, no list entry).
    Unbounded like it: the protocol stops reading the socket while an event waits."""

    __slots__ = ("events", "waiter")

    def __init__(self) -> None:
        self.events: list[ASGIReceiveEvent] = []
        self.waiter: asyncio.Future[ASGIReceiveEvent] | None = None

    def put_nowait(self, event: ASGIReceiveEvent) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():  # a cancelled wait leaves the event queued
            waiter.set_result(event)
            return
        self.events.append(event)

    def empty(self) -> bool:
        return not self.events

    def next(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[ASGIReceiveEvent]:
        """The next event: a future already done if one waits, else the one :meth:`put_nowait` completes."""
        future = loop.create_future()
        if self.events:
            future.set_result(self.events.pop(0))
        else:
            self.waiter = future
        return future


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
    a server: read through from here (:class:`DirectSend`'s properties), with the server's
    keepalive (:class:`.pings.Keepalive`). One per server (:meth:`of`)."""

    __slots__ = ("config", "state", "app_state", "loop", "keepalive")

    def __init__(self, config: Config, state: ServerState, app_state: dict[str, Any], loop: asyncio.AbstractEventLoop):
        self.config, self.state, self.app_state, self.loop = config, state, app_state, loop
        self.keepalive = Keepalive(loop, config.ws_ping_interval, config.ws_ping_timeout)

    @classmethod
    def of(
        cls, config: Config, state: ServerState, app_state: dict[str, Any], loop: asyncio.AbstractEventLoop
    ) -> ServerWide:
        """The server's: the one its first socket made, kept on the state every socket of a
        server shares (uvicorn's ``ServerState``)."""
        wide = getattr(state, WIDE, None)
        if (
            not isinstance(wide, cls)
            or wide.config is not config
            or wide.app_state is not app_state
            or wide.loop is not loop
        ):
            wide = cls(config, state, app_state, loop)
            setattr(state, WIDE, wide)
        return wide


WIDE = "codecrack_server_wide"  # the ServerWide's attribute on uvicorn's ServerState


class DirectSend(SharedPings):
    """The websocket protocol of ``codecrack serve``: shared keepalive, :meth:`send_now`, and a small
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
    keepalive = property(lambda self: self.wide.keepalive)

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
        self.wide = ServerWide.of(config, server_state, app_state, _loop or asyncio.get_event_loop())
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
        self.heard_at = float("-inf")  # pings.py: when the client's last message came
        self.pong_timer: asyncio.TimerHandle | None = None
        self.pending_ping_payload: bytes | None = None
        self.ping_sent_at = 0.0
        self.last_ping_rtt = 0.0
        self.frames: list[bytes] = []
        self.curr_msg_data_type = "bytes"  # type: ignore[assignment]
        self.keepalive_slot = None  # the server's keepalive slot it waits in (pings.py)
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
            # uvicorn reads its scope only until the socket opens: the app keeps it as long as it needs it
            self.scope = None  # type: ignore[assignment]
            self.conn.parser = parser_without_request(self.conn)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:
            self.scope["extensions"][SEND_NOW] = {"send": self.send_now}

    def receive(self) -> asyncio.Future[ASGIReceiveEvent]:  # type: ignore[override]
        """uvicorn's ``receive`` with no coroutine: a future of the next event (a waiting app's
        task then awaits it directly, and an idle socket holds two coroutines fewer). As in
        uvicorn, reading the socket pauses while an event waits for the app and resumes once the
        app takes the last."""
        inbox = cast(Inbox, self.queue)  # uvicorn declares an asyncio.Queue
        if self.read_paused and len(inbox.events) <= 1:
            self.read_paused = False
            self.transport.resume_reading()
        return inbox.next(self.wide.loop)

    def send_receive_event_to_app(self) -> None:
        """A text message that is not UTF-8 closes the socket with 1007, as uvicorn does, but
        logged as the client's fault (one info line), not as an error with a traceback. A message
        handed straight to the waiting app does not pause reading (one that waits does)."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = b"".join(self.frames)
            if not data.isascii() and not _utf8(data):
                self.frames = []
                self.logger.info("%s:%d - invalid UTF-8 in a text message: closed (1007)", *(self.client or ("?", 0)))
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        waiter = cast(Inbox, self.queue).waiter
        handed = waiter is not None and not waiter.done() and not self.read_paused
        if handed:  # the app takes it at once: reading goes on (uvicorn pauses it while one waits)
            self.read_paused = True
        super().send_receive_event_to_app()
        if handed:
            self.read_paused = False

    def connection_lost(self, exc: Exception | None) -> None:
        scope = self.scope  # none when uvicorn refused the handshake or once the socket opened
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
            or self.conn.writes  # the library's own frames wait to go first
        ):
            return False
        self.transport.write(text_frame(text.encode()))
        return True


def text_frame(data: bytes) -> bytes:
    """An unfragmented, unmasked text frame of ``data`` (RFC 6455, 5.2), as the websockets library
    frames it for a server (``tests/web/test_direct_send.py`` compares them), without its frame
    object and its buffer: a few microseconds less for every message a table sends."""
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 65536:
        return b"\x81\x7e" + size.to_bytes(2, "big") + data
    return b"\x81\x7f" + size.to_bytes(8, "big") + data


def parser_without_request(conn: ServerProtocol) -> Generator[None, None, None]:
    """``conn``'s parser of frames, without the handshake's request: the websockets library's
    server parser keeps the request it parsed (a local of its generator) for the connection's life,
    around the frame parser it then runs. When that frame parser waits at a frame's start with
    nothing unread (as a client that waits for the 101 response leaves it), a new frame parser in
    the same state takes over; else the parser is kept as it is."""
    parser = cast(types.GeneratorType, conn.parser)
    frames = parser.gi_yieldfrom
    waiting = getattr(frames, "gi_yieldfrom", None)
    if (
        parser.gi_code is not ServerProtocol.parse.__code__
        or getattr(frames, "gi_code", None) is not Protocol.parse.__code__
        or getattr(waiting, "gi_code", None) is not StreamReader.at_eof.__code__
        or conn.reader.buffer
        or conn.reader.eof
    ):
        return parser
    fresh = Protocol.parse(conn)
    next(fresh)  # to where the old one waits: at_eof, with nothing unread
    parser.close()
    return fresh


def _utf8(data: bytes) -> bool:
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True

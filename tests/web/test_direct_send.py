"""The direct writes of ``codecrack serve``'s websocket protocol (codecrack/web/direct_send.py):
the same bytes as the websockets library's own frames, (made by its own connection), and a refusal, with nothing written,
whenever the socket is not plainly writable or holds unsent data (the message then takes the
connection's queue and the ASGI send; tests/web/test_fanout.py shows a client that does not read
closed as too slow)."""

from __future__ import annotations

import asyncio
import gc
import sys
import types

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State

from codecrack.web.direct_send import SEND_NOW, DirectSend, Inbox, Writable
from codecrack.web.middleware import AsgiSocket


class Transport:
    """Records what is written; ``closing`` as asked."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False
        self.unsent = 0  # bytes the kernel has not taken yet

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


def open_protocol() -> tuple[DirectSend, Transport]:
    """A protocol past its handshake, on a transport that records its writes."""
    config = uvicorn.Config(app=None, interface="asgi3")
    config.loaded, config.loaded_app = True, None
    protocol = DirectSend(config, ServerState(), {}, _loop=object())
    protocol.transport, protocol.handshake_complete = Transport(), True
    protocol.conn.state = State.OPEN
    return protocol, protocol.transport


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_an_open_socket_writes_a_text_message_at_once_as_one_unmasked_frame(size):
    protocol, transport = open_protocol()
    text = ("é" * size)[:size]
    assert protocol.send_now(text)
    assert transport.written == [Frame(Opcode.TEXT, text.encode()).serialize(mask=False)]


@pytest.mark.parametrize(
    "unwritable",
    [
        lambda protocol: protocol.writable.clear(),  # the transport's buffer is over its high mark
        lambda protocol: setattr(protocol, "close_sent", True),
        lambda protocol: setattr(protocol, "disconnected", True),
        lambda protocol: setattr(protocol, "handshake_complete", False),
        lambda protocol: setattr(protocol.conn, "state", State.CLOSING),  # the client's close came
        lambda protocol: setattr(protocol.transport, "closing", True),
        lambda protocol: setattr(protocol.transport, "unsent", 1),  # the client is not reading
        lambda protocol: setattr(protocol.conn, "extensions", ["permessage-deflate"]),
        lambda protocol: protocol.conn.send_pong(b"ping"),  # the library's own frame waits to go first
    ],
)
def test_a_socket_not_plainly_writable_refuses_and_writes_nothing(unwritable):
    protocol, transport = open_protocol()
    unwritable(protocol)
    assert not protocol.send_now('{"type":"state"}')
    assert transport.written == []


def test_the_direct_send_leaves_the_scope_when_the_connection_is_lost():
    """``send_now`` holds the protocol, which holds the scope: left there, every closed socket
    would be a reference cycle, freed only by a whole collection (docs/web-server.md, "Garbage collection")."""
    protocol, transport = open_protocol()
    protocol.scope = {"extensions": {SEND_NOW: protocol.send_now}}
    protocol.connections.add(protocol)
    protocol.close_timer = None
    protocol.connection_lost(ConnectionResetError("the client left"))
    assert SEND_NOW not in protocol.scope["extensions"] and not protocol.send_now('{"type":"state"}')


def test_a_connection_refused_at_its_handshake_is_lost_cleanly():
    """A handshake that uvicorn refuses (a bad upgrade request) leaves the protocol without a
    scope: losing that connection must still forget it like any other."""
    protocol, transport = open_protocol()
    protocol.connections.add(protocol)
    protocol.connection_lost(ConnectionResetError("the client left"))
    assert protocol not in protocol.connections and protocol.disconnected


def test_the_inbox_hands_events_over_in_order_and_wakes_a_waiting_reader():
    async def scenario() -> list[dict]:
        loop, inbox = asyncio.get_running_loop(), Inbox()
        inbox.put_nowait({"n": 1})
        got = [await inbox.next(loop)]
        assert inbox.empty()
        waiting = inbox.next(loop)  # the reader waits
        inbox.put_nowait({"n": 2})  # handed to it
        inbox.put_nowait({"n": 3})
        assert not inbox.empty()
        got += [await asyncio.wait_for(waiting, 30), await inbox.next(loop)]
        cancelled = inbox.next(loop)
        cancelled.cancel()  # a reader that stopped waiting: the event stays for the next one
        inbox.put_nowait({"n": 4})
        got.append(await inbox.next(loop))
        return got

    assert asyncio.run(scenario()) == [{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}]


class PeerTransport(Transport):
    """A transport with a peer's addresses, for a whole handshake."""

    def get_extra_info(self, name: str, default=None):
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def close(self) -> None:
        self.closing = True

    paused = False  # reading

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False


def reachable(root: object, limit: int = 200_000) -> list[object]:
    """Every object ``root`` holds, directly or not (classes, modules, functions and the event loop
    not followed)."""
    seen, found, queue = {id(root)}, [], [root]
    while queue and len(found) < limit:
        for held in gc.get_referents(queue.pop()):
            if id(held) in seen or isinstance(
                held, (type, types.ModuleType, types.FunctionType, asyncio.AbstractEventLoop)
            ):
                continue
            seen.add(id(held))
            found.append(held)
            queue.append(held)
    return found


UPGRADE = (
    b"GET /ws/ABCDE HTTP/1.1\r\nhost: localhost\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
    b"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n"
)


async def open_socket(app, headers: bytes = b"", after: bytes = b"") -> DirectSend:
    """A protocol that took an upgrade request (as uvicorn's HTTP protocol hands it over; ``after``:
    what the client sent with it), once ``app`` has run up to its first ``await`` after accepting
    (it appends to ``app.opened``)."""
    config = uvicorn.Config(app=app, interface="asgi3")
    config.loaded, config.loaded_app = True, app
    protocol = DirectSend(config, ServerState(), {}, _loop=asyncio.get_running_loop())
    protocol.connection_made(PeerTransport())
    protocol.data_received(UPGRADE + headers + b"\r\n" + after)
    async with asyncio.timeout(30):
        while not app.opened:
            await asyncio.sleep(0)
    assert protocol.transport.written[0].startswith(b"HTTP/1.1 101")
    return protocol


async def close_socket(protocol: DirectSend) -> None:
    protocol.connection_lost(None)
    async with asyncio.timeout(30):
        while protocol.tasks:
            await asyncio.sleep(0)


def test_an_open_socket_holds_none_of_its_handshakes_headers():
    """Once the app accepted it, an idle socket keeps neither the request's headers (nor the
    websockets library's parsed request) nor the scope's copy of them: a socket's lifelong cost
    (docs/benchmarks.md, "Idle sockets")."""
    marker = "a-header-value-only-this-handshake-has"

    async def app(scope, receive, send):
        assert (await receive())["type"] == "websocket.connect"
        assert b"x-marker" in dict(scope["headers"])
        await send({"type": "websocket.accept"})
        app.opened.append(scope)
        await receive()  # the disconnect

    app.opened = []

    async def scenario() -> None:
        protocol = await open_socket(app, b"x-marker: " + marker.encode() + b"\r\n")
        held = [item for item in reachable(protocol) if isinstance(item, (str, bytes)) and marker in str(item)]
        assert held == []
        await close_socket(protocol)

    asyncio.run(scenario())


def reading_app(got: list[str]):
    """An app that accepts its socket (``open_socket`` waits for it) and appends every text message
    it reads to ``got``."""

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        app.opened.append(scope)
        while (message := await receive())["type"] == "websocket.receive":
            got.append(message["text"])

    app.opened = []
    return app


def test_an_open_socket_keeps_no_parsed_request_and_still_reads_its_messages():
    """The websockets library's parser keeps the request it parsed for the connection's life (a
    local of its generator, 0.6 KB a socket with its emptied headers): once open, a socket reads
    with a frame parser of its own, and every message still arrives, in order."""
    got: list[str] = []
    app = reading_app(got)

    async def scenario() -> list[object]:
        protocol = await open_socket(app)
        requests = [item for item in reachable(protocol) if isinstance(item, Request)]
        hello = Frame(Opcode.TEXT, b'{"type":"hello"}').serialize(mask=True)
        protocol.data_received(hello[:3])  # a frame in two pieces
        protocol.data_received(hello[3:] + Frame(Opcode.TEXT, b"second").serialize(mask=True))
        async with asyncio.timeout(30):
            while len(got) < 2:
                await asyncio.sleep(0)
        await close_socket(protocol)
        return requests

    assert asyncio.run(scenario()) == []
    assert got == ['{"type":"hello"}', "second"]


def test_a_message_sent_with_the_upgrade_request_is_read_all_the_same():
    """A client may send its first message before the 101 response comes: the parser in the middle
    of it is kept (only a parser waiting at a frame's start with nothing unread is replaced)."""
    got: list[str] = []
    app = reading_app(got)

    async def scenario() -> None:
        hello = Frame(Opcode.TEXT, b'{"type":"hello"}').serialize(mask=True)
        protocol = await open_socket(app, b"", after=hello[:5])
        protocol.data_received(hello[5:])
        async with asyncio.timeout(30):
            while not got:
                await asyncio.sleep(0)
        await close_socket(protocol)

    asyncio.run(scenario())
    assert got == ['{"type":"hello"}']


def test_reading_goes_on_while_the_app_handles_a_message_and_stops_while_one_waits():
    """As uvicorn's: the socket is read (pongs, a close) while the app works on a message it took,
    and not while a message waits for the app (the client's messages wait in the kernel)."""
    busy, seen = asyncio.Event(), []

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        app.opened.append(scope)
        seen.append((await receive())["text"])  # handed over while it waits
        await busy.wait()  # working on it
        seen.append((await receive())["text"])
        await receive()  # the disconnect

    app.opened = []

    async def scenario() -> list[bool]:
        protocol = await open_socket(app)
        transport, paused = protocol.transport, []
        protocol.data_received(Frame(Opcode.TEXT, b"first").serialize(mask=True))
        async with asyncio.timeout(30):
            while not seen:
                await asyncio.sleep(0)
        paused.append(transport.paused)  # the app took it: reading goes on
        protocol.data_received(Frame(Opcode.TEXT, b"second").serialize(mask=True))
        paused.append(transport.paused)  # it waits: reading stops
        busy.set()
        async with asyncio.timeout(30):
            while len(seen) < 2:
                await asyncio.sleep(0)
        paused.append(transport.paused)  # taken: reading goes on
        await close_socket(protocol)
        return paused

    assert asyncio.run(scenario()) == [False, True, False]
    assert seen == ["first", "second"]


def test_an_open_socket_keeps_its_attributes_in_a_shared_key_dict():
    """CPython keeps an object's attributes in a dict whose keys its class shares, for up to 30
    of them, while the class has slots left for new names (each new object takes one); else the
    object gets a dict of its own, 1.5 KB a socket. uvicorn's protocol sets 35, three of them
    only at the handshake. Ours keeps what every socket of a server shares (its settings, its
    sets of connections and tasks) in one object, read through, and names every attribute at its
    start (docs/benchmarks.md, "Idle sockets"). Many sockets are made before the first one opens,
    as when a crowd connects."""

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        app.opened.append(scope)
        await receive()  # the disconnect

    app.opened = []

    async def scenario() -> tuple[int, int]:
        config = uvicorn.Config(app=app, interface="asgi3")
        crowd = [DirectSend(config, ServerState(), {}, _loop=asyncio.get_running_loop()) for _ in range(50)]
        protocol = await open_socket(app)
        del crowd
        attributes, size = len(vars(protocol)), sys.getsizeof(vars(protocol))
        assert protocol in protocol.connections and protocol.ping_interval == protocol.config.ws_ping_interval
        await close_socket(protocol)
        return attributes, size

    attributes, size = asyncio.run(scenario())
    assert attributes <= 30 and size < 1000, (attributes, size)


def test_the_protocol_has_every_attribute_of_uvicorns_with_its_value():
    """DirectSend sets up its socket itself (not through uvicorn's ``__init__``): whatever a newer
    uvicorn adds there must be added here too."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    config = uvicorn.Config(app=None, interface="asgi3", ws_ping_interval=7.0, ws_ping_timeout=3.0)
    config.loaded, config.loaded_app = True, None
    state, loop = ServerState(), object()
    theirs = WebSocketsSansIOProtocol(config, state, {}, _loop=loop)  # type: ignore[arg-type]
    ours = DirectSend(config, state, {}, _loop=loop)  # type: ignore[arg-type]
    for name, value in vars(theirs).items():
        assert hasattr(ours, name), name
        if value is None or isinstance(value, (bool, int, float, str, list, tuple, dict, set)):
            assert getattr(ours, name) == value, name
        elif not isinstance(value, (asyncio.Queue, asyncio.Event)):  # our Inbox and Writable stand in
            assert type(getattr(ours, name)) is type(value), name


def test_the_direct_send_is_offered_as_an_asgi_extension_is_a_dict_of_its_data():
    """ASGI gives every extension in the scope as a dict (uvicorn's types say so, which mypy
    checks): the direct send is ``{"send": function}``, and the app's socket finds it there."""
    sent: list[bool] = []

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        app.opened.append(scope)
        sent.append(AsgiSocket(scope, receive, send).send_now('{"type":"state"}'))
        await receive()  # the disconnect

    app.opened = []

    async def scenario() -> dict:
        protocol = await open_socket(app)
        extensions = dict(app.opened[0]["extensions"])
        assert protocol.transport.written[-1] == Frame(Opcode.TEXT, b'{"type":"state"}').serialize(mask=False)
        await close_socket(protocol)
        return extensions

    extensions = asyncio.run(scenario())
    assert all(isinstance(data, dict) for data in extensions.values()), extensions
    assert sent == [True] and callable(extensions[SEND_NOW]["send"])


def test_the_writable_flag_holds_back_a_send_until_the_transport_drains():
    async def scenario() -> list[str]:
        writable, done = Writable(), []
        assert await writable.wait() and writable.waiters is None  # open: no waiter is made
        writable.clear()

        async def send(name: str) -> None:
            await writable.wait()
            done.append(name)

        sends = [asyncio.ensure_future(send(name)) for name in ("a", "b")]
        await asyncio.sleep(0)
        assert done == [] and not writable.is_set()
        writable.set()
        await asyncio.wait_for(asyncio.gather(*sends), 30)
        assert writable.waiters is None
        return done

    assert asyncio.run(scenario()) == ["a", "b"]

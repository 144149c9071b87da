"""The direct writes of ``codecrack serve``'s websocket protocol (codecrack/web/direct_send.py):
the same bytes as the websockets library's own frames, (made by its own connection), and a refusal, with nothing written,
whenever the socket is not plainly writable or holds unsent data (the message then takes the
connection's queue and the ASGI send; tests/web/test_fanout.py shows a client that does not read
closed as too slow)."""

from __future__ import annotations

import asyncio

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from codecrack.web.direct_send import SEND_NOW, DirectSend, Inbox


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
        inbox = Inbox()
        inbox.put_nowait({"n": 1})
        got = [await inbox.get()]
        assert inbox.empty()
        waiting = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)  # the reader waits
        inbox.put_nowait({"n": 2})
        inbox.put_nowait({"n": 3})
        got += [await asyncio.wait_for(waiting, 30), await inbox.get()]
        return got

    assert asyncio.run(scenario()) == [{"n": 1}, {"n": 2}, {"n": 3}]

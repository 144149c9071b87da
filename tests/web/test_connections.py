"""One connection's outgoing side (connections.py), against a fake socket: messages go out in
order, a send that never finishes closes the connection as too slow, and a connection that ends
is freed by reference counting alone."""

from __future__ import annotations

import asyncio
import gc
import weakref

from codecrack.web.connections import TOO_SLOW, Connection


class FakeSocket:
    """Records what is sent and how it is closed; ``stall`` sends never finish."""

    def __init__(self, stall: bool = False) -> None:
        self.stall = stall
        self.sent: list[str] = []
        self.closed: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        if self.stall:
            await asyncio.Event().wait()
        self.sent.append(data)

    def send_now(self, data: str) -> bool:
        return False  # every message through the queue and send_text

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


def test_messages_go_out_in_order_then_the_socket_closes_as_asked():
    async def scenario() -> FakeSocket:
        socket = FakeSocket()
        connection = Connection(0, socket, send_timeout=60.0)
        for n in range(5):
            connection.push({"n": n})
        connection.end(4001, "bye")
        await connection.writer
        return socket

    socket = asyncio.run(scenario())
    assert socket.sent == [f'{{"n":{n}}}' for n in range(5)]
    assert socket.closed == (4001, "bye")


def test_a_send_that_never_finishes_closes_the_connection_as_too_slow():
    async def scenario() -> tuple[FakeSocket, Connection]:
        socket = FakeSocket(stall=True)
        connection = Connection(0, socket, send_timeout=0.05)
        connection.push({"n": 1})
        connection.push({"n": 2})
        reading = asyncio.get_running_loop().create_future()  # a client that says nothing
        await asyncio.wait_for(connection.serve(reading), 30)
        return socket, connection

    socket, connection = asyncio.run(scenario())
    assert socket.closed is not None and socket.closed[0] == TOO_SLOW
    assert not connection.pending and connection.ending[0] == TOO_SLOW


def test_a_connection_closed_by_its_reader_does_not_wait_for_the_send_timeout():
    """The reader's end (the client left) cancels the writer: a pending watch of the send does
    not outlive it."""

    async def scenario() -> FakeSocket:
        socket = FakeSocket(stall=True)
        connection = Connection(0, socket, send_timeout=3600.0)
        connection.push({"n": 1})

        async def reading() -> None:
            await asyncio.sleep(0)
            raise ConnectionResetError("the client left")

        try:
            await asyncio.wait_for(connection.serve(reading()), 30)
        except ConnectionResetError:
            pass
        return socket

    socket = asyncio.run(scenario())
    assert socket.sent == [] and socket.closed is None


def test_a_connection_that_ends_is_freed_without_a_garbage_collection():
    """The exceptions that end its tasks (the client's disconnect, the writer's cancellation) hold
    tracebacks, whose frames hold the connection and its tasks: were they a reference cycle,
    every closed socket would wait for a whole collection (docs/web-server.md, "Garbage collection")."""

    async def scenario() -> weakref.ref:
        connection = Connection(0, FakeSocket(), send_timeout=3600.0)

        async def reading() -> None:
            await asyncio.sleep(0)
            raise ConnectionResetError("the client left")

        try:
            await connection.serve(reading())
        except ConnectionResetError:
            pass
        await asyncio.sleep(0)  # the writer's cancellation is delivered
        return weakref.ref(connection)

    gc.disable()
    try:
        gone = asyncio.run(scenario())
        assert gone() is None
    finally:
        gc.enable()


class PlainSocket(FakeSocket):
    """A socket that takes a message at once while ``plain`` (else the message is queued)."""

    def __init__(self, stall: bool = False) -> None:
        super().__init__(stall)
        self.plain = True

    def send_now(self, data: str) -> bool:
        if self.plain:
            self.sent.append(data)
        return self.plain


def test_a_message_is_written_at_once_unless_one_is_queued_or_being_sent_before_it():
    async def scenario() -> tuple[PlainSocket, list[str], list[str]]:
        socket = PlainSocket()
        connection = Connection(0, socket, send_timeout=60.0)
        connection.push({"n": 1})  # at once
        socket.plain = False
        connection.push({"n": 2})  # queued: the socket's writes are paused
        socket.plain, socket.stall = True, True
        connection.push({"n": 3})  # queued behind 2, although the socket is writable again
        await asyncio.sleep(0)  # the writer runs: it is now sending 2, which stalls
        connection.push({"n": 4})  # queued behind 2, which is being sent
        sent_then, queued = list(socket.sent), list(connection.pending)
        connection.writer.cancel()
        return socket, sent_then, queued

    socket, sent_then, queued = asyncio.run(scenario())
    assert sent_then == ['{"n":1}']
    assert queued == ['{"n":3}', '{"n":4}']

"""Keepalive pings (codecrack/web/pings.py): every socket's next ping or pong deadline waits in a
slot of the server's one keepalive, with no timer of its own; each connection's first ping comes
at a random moment within the interval, so sockets opened together are not pinged together; no
ping comes later than uvicorn's would, no connection is closed before its pong's deadline, a
client heard from within the interval is not pinged, and a client that does not answer is closed
as dead."""

import asyncio
import os
import time

import httpx
import pytest
import uvicorn
from uvicorn.server import ServerState

from codecrack.web.config import WebConfig
from codecrack.web.direct_send import DirectSend
from codecrack.web.pings import Keepalive, SharedPings
from codecrack.web.server import uvicorn_options

from .live_server import GUARD, RawSocket, live_server
from .test_direct_send import PeerTransport
from .wsclient import HUMAN

PONG_GONE = 1011  # the close code of a keepalive ping left unanswered


class Clock:
    """An event loop's clock and ``call_at``, set by hand; records the timers asked for."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now
        self.timers: list[float] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback, *args) -> asyncio.TimerHandle:
        self.timers.append(when)
        return asyncio.TimerHandle(when, callback, args, asyncio.new_event_loop())


class Socket:
    """What the keepalive asks of a socket; records when its slot came."""

    def __init__(self, clock: Clock) -> None:
        self.clock, self.keepalive_slot, self.due_at = clock, None, []

    def keepalive_due(self) -> None:
        self.due_at.append(self.clock.now)


def run_until(keepalive: Keepalive, clock: Clock, until: float) -> None:
    """Advance ``clock`` to ``until``, running the keepalive's timer whenever it comes."""
    while keepalive.timer is not None and keepalive.timer.when() <= until:
        clock.now = keepalive.timer.when()
        keepalive.timer._run()
    clock.now = until


def open_protocols(count: int, interval: float, clock: Clock) -> list[DirectSend]:
    config = uvicorn.Config(app=None, interface="asgi3", ws_ping_interval=interval, ws_ping_timeout=interval)
    config.loaded, config.loaded_app = True, None
    state, app_state = ServerState(), {}  # a server's, shared by its sockets
    protocols = [DirectSend(config, state, app_state, _loop=clock) for _ in range(count)]  # type: ignore[arg-type]
    for protocol in protocols:
        protocol.start_keepalive()
    return protocols


def test_the_first_pings_of_sockets_opened_together_are_spread_over_the_interval():
    clock = Clock()
    protocols = open_protocols(400, 20.0, clock)
    keepalive = protocols[0].keepalive
    assert all(protocol.keepalive is keepalive for protocol in protocols)  # the server's one
    starts = [number * keepalive.tick - clock.now for number in keepalive.slots for _ in keepalive.slots[number]]
    assert len(starts) == 400
    assert all(-keepalive.tick < start <= 20.0 + 1e-9 for start in starts), starts  # never later than uvicorn's
    quarters = {int(start // 5.0) for start in starts if start >= 0}
    assert quarters >= {0, 1, 2, 3}  # (3/4)**400 is the chance that a quarter is missed
    assert clock.timers == [pytest.approx(clock.now + keepalive.tick)]  # one timer for them all


def test_an_idle_socket_holds_no_timer_of_its_own():
    """uvicorn's protocol holds a timer of the loop per socket, its next ping or its pong's
    deadline (0.6 KB a socket): here it waits in the server's keepalive."""
    clock = Clock()
    (protocol,) = open_protocols(1, 20.0, clock)
    assert protocol.ping_timer is None and protocol.pong_timer is None
    assert protocol.keepalive_slot is not None and protocol in protocol.keepalive_slot
    protocol.stop_keepalive()
    assert protocol.keepalive_slot is None and not any(protocol.keepalive.slots.values())


@pytest.mark.parametrize("tick", [0.1, 0.01])
def test_a_ping_comes_no_later_than_asked_and_a_deadline_no_sooner(tick):
    clock, keepalive = Clock(), Keepalive(None, tick * 20, tick * 20)  # type: ignore[arg-type]
    keepalive.loop = clock  # type: ignore[assignment]
    assert keepalive.tick == pytest.approx(tick)
    pinged, dead = Socket(clock), Socket(clock)
    asked = clock.now + 3.7 * tick + 1e-9
    keepalive.ping_at(pinged, asked)
    keepalive.deadline_at(dead, asked)
    run_until(keepalive, clock, asked + 5 * tick)
    (ping,), (deadline,) = pinged.due_at, dead.due_at
    assert asked - tick < ping <= asked and asked <= deadline < asked + tick
    assert keepalive.timer is None and not keepalive.slots  # nothing waits: no timer runs


def test_a_socket_moved_to_another_slot_or_forgotten_comes_only_there():
    clock = Clock()
    keepalive = Keepalive(clock, 20.0, 20.0)  # type: ignore[arg-type]
    moved, forgotten, kept = Socket(clock), Socket(clock), Socket(clock)
    for socket in (moved, forgotten, kept):
        keepalive.deadline_at(socket, clock.now + 1.0)  # waiting for a pong
    keepalive.ping_at(moved, clock.now + 5.0)  # its pong came: its next ping
    keepalive.forget(forgotten)  # its connection was lost
    run_until(keepalive, clock, clock.now + 10.0)
    assert kept.due_at == [pytest.approx(1001.0)] and moved.due_at == [pytest.approx(1005.0)]
    assert forgotten.due_at == []


def test_a_socket_whose_ping_fails_does_not_stop_the_others(caplog):
    class Broken(Socket):
        def keepalive_due(self) -> None:
            raise OSError("the transport broke")

    clock = Clock()
    keepalive = Keepalive(clock, 20.0, 20.0)  # type: ignore[arg-type]
    broken, other, later = Broken(clock), Socket(clock), Socket(clock)
    keepalive.ping_at(broken, clock.now + 1.0)
    keepalive.ping_at(other, clock.now + 1.0)
    keepalive.ping_at(later, clock.now + 2.0)
    run_until(keepalive, clock, clock.now + 3.0)
    assert other.due_at and later.due_at and "a keepalive ping failed" in caplog.text


def test_a_socket_that_answers_is_pinged_an_interval_after_its_last_ping():
    class Conn:
        def send_ping(self, payload: bytes) -> None:
            self.payload = payload

        def data_to_send(self) -> list[bytes]:
            return [b"ping"]

    clock = Clock()
    (protocol,) = open_protocols(1, 20.0, clock)
    protocol.transport, protocol.conn = PeerTransport(), Conn()  # type: ignore[assignment]
    run_until(protocol.keepalive, clock, clock.now + 20.0)
    sent = protocol.ping_sent_at
    assert protocol.transport.written == [b"ping"] and protocol.pending_ping_payload is not None
    clock.now = sent + 0.5
    protocol.handle_pong(type("Pong", (), {"data": protocol.conn.payload})())  # type: ignore[arg-type]
    assert protocol.pending_ping_payload is None and protocol.last_ping_rtt == pytest.approx(0.5)
    run_until(protocol.keepalive, clock, sent + 20.0)
    assert len(protocol.transport.written) == 2  # the next ping, at sent + 20 s (uvicorn's interval - rtt)
    assert not protocol.transport.closing
    assert clock.timers == sorted(set(clock.timers))  # one timer at a time, each for a later slot


def test_the_server_pings_as_configured():
    options = uvicorn_options(WebConfig(db_url="sqlite://", ws_ping_interval=5.0, ws_ping_timeout=3.0))
    assert issubclass(options["ws"], SharedPings)
    assert (options["ws_ping_interval"], options["ws_ping_timeout"]) == (5.0, 3.0)


def create_table(host: str, port: int) -> str:
    return httpx.post(
        f"http://{host}:{port}/api/tables", timeout=GUARD, json={"game": "toy", "seats": [HUMAN, HUMAN]}
    ).json()["code"]


def test_a_client_that_does_not_answer_pings_is_closed_as_dead(tmp_path):
    config = WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ws_ping_interval=0.2, ws_ping_timeout=0.2)
    with live_server(config) as (host, port):
        client = RawSocket((host, port), f"/ws/{create_table(host, port)}")  # reads, but never answers a ping
        client.send({"type": "hello", "token": None})
        opcodes, code = [], None
        for opcode, payload in client.frames():
            opcodes.append(opcode)
            if opcode == 8:
                code = int.from_bytes(payload[:2], "big")
        client.close()
    assert 9 in opcodes and code == PONG_GONE  # pinged, then closed for want of a pong


def test_a_client_that_talks_is_not_pinged_and_once_silent_is_pinged_and_closed_as_dead(tmp_path):
    """A message within the interval answers the ping's question: no ping while the client talks
    (here every 0.1 s for three intervals); silent, it is pinged and, not answering, closed."""
    config = WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ws_ping_interval=1.0, ws_ping_timeout=1.0)
    with live_server(config) as (host, port):
        client = RawSocket((host, port), f"/ws/{create_table(host, port)}")  # never answers a ping
        client.send({"type": "hello", "token": None})
        frames = client.frames()
        talking = []
        for _ in range(30):
            client.send({"type": "ping"})  # the game's own ping: answered with a pong message
            for opcode, payload in frames:
                talking.append(opcode)
                if opcode == 1 and b'"pong"' in payload:
                    break
            else:
                break  # closed while talking
            time.sleep(0.1)
        silent, code = [], None
        for opcode, payload in frames:
            silent.append(opcode)
            if opcode == 8:
                code = int.from_bytes(payload[:2], "big")
        client.close()
    assert 9 not in talking and 1 in talking  # talked 3 s with a 1 s interval: never pinged
    assert 9 in silent and code == PONG_GONE  # silent: pinged, then closed for want of a pong


def answer(client: RawSocket, payload: bytes) -> None:
    """Send the pong of a ping that carried ``payload``, masked as a client must."""
    mask = os.urandom(4)
    client.sock.sendall(
        bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


def test_a_client_that_answers_pings_is_pinged_again_and_again_and_stays(tmp_path):
    config = WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ws_ping_interval=0.2, ws_ping_timeout=0.2)
    with live_server(config) as (host, port):
        client = RawSocket((host, port), f"/ws/{create_table(host, port)}")
        client.send({"type": "hello", "token": None})
        pings, texts = 0, []
        for opcode, payload in client.frames():
            assert opcode != 8, payload  # never closed
            if opcode == 9:
                pings += 1
                answer(client, payload)
                if pings == 5:
                    client.send({"type": "ping"})  # still served
            elif opcode == 1:
                texts.append(payload)
                if pings >= 5 and b'"pong"' in payload:
                    break
        client.close()
    assert pings >= 5 and b'"pong"' in texts[-1]

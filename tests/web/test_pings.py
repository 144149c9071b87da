"""Keepalive pings (codecrack/web/pings.py): each connection's first ping comes at a random moment
within the interval, so sockets opened together are not pinged together; a client that does not
answer is still closed as dead."""

import asyncio

import httpx
import uvicorn
from uvicorn.server import ServerState

from codecrack.web.config import WebConfig
from codecrack.web.pings import SpreadPings
from codecrack.web.server import uvicorn_options

from .live_server import GUARD, RawSocket, live_server
from .wsclient import HUMAN

PONG_GONE = 1011  # the close code of a keepalive ping left unanswered


class Timers:
    """An event loop's ``call_later``, recording the delays asked for."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def call_later(self, delay: float, callback, *args) -> asyncio.TimerHandle:
        self.delays.append(delay)
        return asyncio.TimerHandle(0.0, callback, args, asyncio.new_event_loop())


def first_ping_delays(connections: int, interval: float) -> list[float]:
    config = uvicorn.Config(app=None, interface="asgi3", ws_ping_interval=interval, ws_ping_timeout=interval)
    config.loaded, config.loaded_app = True, None
    timers = Timers()
    for _ in range(connections):
        SpreadPings(config, ServerState(), {}, _loop=timers).start_keepalive()
    return timers.delays


def test_the_first_pings_of_sockets_opened_together_are_spread_over_the_interval():
    delays = first_ping_delays(400, 20.0)
    assert all(0.0 <= delay <= 20.0 for delay in delays)  # never later than uvicorn's first ping
    quarters = {int(delay // 5.0) for delay in delays}
    assert quarters >= {0, 1, 2, 3}  # (3/4)**400 is the chance that a quarter is missed


def test_the_server_pings_as_configured():
    options = uvicorn_options(WebConfig(db_url="sqlite://", ws_ping_interval=5.0, ws_ping_timeout=3.0))
    assert issubclass(options["ws"], SpreadPings)
    assert (options["ws_ping_interval"], options["ws_ping_timeout"]) == (5.0, 3.0)


def test_a_client_that_does_not_answer_pings_is_closed_as_dead(tmp_path):
    config = WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ws_ping_interval=0.2, ws_ping_timeout=0.2)
    with live_server(config) as (host, port):
        table = httpx.post(
            f"http://{host}:{port}/api/tables", timeout=GUARD, json={"game": "toy", "seats": [HUMAN, HUMAN]}
        ).json()["code"]
        client = RawSocket((host, port), f"/ws/{table}")  # reads, but never answers a ping
        client.send({"type": "hello", "token": None})
        opcodes, code = [], None
        for opcode, payload in client.frames():
            opcodes.append(opcode)
            if opcode == 8:
                code = int.from_bytes(payload[:2], "big")
        client.close()
    assert 9 in opcodes and code == PONG_GONE  # pinged, then closed for want of a pong

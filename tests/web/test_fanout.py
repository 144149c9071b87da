"""One slow client holds nobody up, and connection notices are not quadratic."""

import json
from contextlib import ExitStack

import httpx
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from codecrack.web.app import create_app
from codecrack.web.connections import TOO_SLOW

from .conftest import fast_config
from .live_server import GUARD, RawSocket, live_server
from .wsclient import HUMAN, RANDOM, STATES, create, seated


def test_a_client_that_never_reads_is_closed_and_holds_nobody_up(tmp_path):
    """Today every send happens under the table's lock: a socket that is never read froze its
    table. Here a spectator stops reading while two bots play a long game: a reading spectator
    gets every state in order, and the stalled one is closed once its queue overflows. (The
    stalled one asks for whole views without reading them: the deltas of one game alone are
    small enough for the socket buffers to hold them all.)"""
    # the bots keep a short pace, so that the reading client keeps up even on a busy machine
    config = fast_config(tmp_path, send_queue_limit=4, ai_pace=0.02)
    with live_server(config, send_buffer=4096) as (host, port):
        made = httpx.post(
            f"http://{host}:{port}/api/tables",
            timeout=GUARD,
            json={"game": "alphacode", "seats": [HUMAN, RANDOM], "sit": 0, "takeover": "random"},
        ).json()
        url = f"ws://{host}:{port}/ws/{made['code']}"
        stalled = RawSocket((host, port), f"/ws/{made['code']}")
        stalled.send({"type": "hello", "token": None})
        for _ in range(config.message_burst):
            stalled.send({"type": "resync"})
        with connect(url, open_timeout=GUARD) as reader:
            reader.send(json.dumps({"type": "hello", "token": None}))
            with connect(url, open_timeout=GUARD) as player:
                player.send(json.dumps({"type": "hello", "token": made["token"]}))
                player.recv(timeout=GUARD)
            # the player left at once: after the disconnect timeout the takeover AI plays their seat
            steps, over = [], None
            while over is None:
                message = json.loads(reader.recv(timeout=GUARD))
                if message["type"] in STATES:
                    steps.append(message["step"])
                elif message["type"] == "table" and message["table"]["over"]:
                    over = message["table"]
        assert steps == list(range(steps[0], over["step"] + 1))  # every state, in order
        messages, code, reason = stalled.read_all()
        stalled.close()
    assert code == TOO_SLOW and "reconnect" in reason
    assert len([m for m in messages if m["type"] in STATES]) < len(steps)


def test_a_crowd_connecting_costs_a_message_each_not_one_per_pair(tmp_path):
    """400 spectators took 82,200 sends to connect: each connection told every other one."""
    crowd = 60
    with TestClient(
        create_app(fast_config(tmp_path, table_info_interval=3600.0, connections_per_address=crowd))
    ) as client:
        code = create(client, "toy", [HUMAN, HUMAN])["code"]
        with ExitStack() as stack:
            spectators = [stack.enter_context(seated(client, code)) for _ in range(crowd)]
            for spectator in spectators:
                spectator.ws.send_json({"type": "ping"})
                spectator.until(lambda m: m["type"] == "pong")
            received = sum(len(spectator.log) for spectator in spectators)
    assert received <= 4 * crowd  # hello, state, pong and at most one table notice each

"""Draining (issue 29 §4) on one instance: while it drains it takes no new table or game socket and
is not ready; on SIGTERM a real SQLite server closes its game sockets with 1012 (service restart),
exits cleanly, and a server started again on the same database carries the game on: the player is
back in it, and everything it was shown is stored."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from codecrack.loadtest.target import codecrack_server, websocket_base
from codecrack.web.app import create_app
from tests.web.conftest import fast_config

from ..cluster.players import Player
from ..cluster.services import GUARD, wait_until
from ..services import free_port

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}


def test_a_draining_instance_takes_no_new_table_nor_socket(tmp_path):
    with TestClient(create_app(fast_config(tmp_path))) as client:
        code = client.post("/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN]}).json()["code"]
        client.app.state.drain.active = True
        refused = client.post("/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN]})
        assert refused.status_code == 503 and "restarting" in refused.json()["detail"]
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/ws/{code}") as socket:
            socket.receive_text()
        assert closed.value.code == 1012
        assert client.get("/readyz").status_code == 503
        assert client.get(f"/api/tables/{code}").status_code == 200  # what is open still answers


def test_sigterm_drains_a_sqlite_instance_and_a_restart_carries_the_game_on(tmp_path):
    db, port = f"sqlite:///{tmp_path}/cc.db", free_port()
    settings = {"CODECRACK_AI_PACE": "0", "CODECRACK_DRAIN_SECONDS": "10"}
    first = codecrack_server(db, port=port, **settings).__enter__()
    try:
        made = httpx.post(f"{first.url}/api/tables", json={"game": "coda", "seats": [HUMAN, RANDOM], "sit": 0}).json()
        player = Player(first.url, made["code"], made["token"], seed=1)
        player.start()
        wait_until(lambda: player.step >= 4, "the game gets going")
        player.paused.set()  # it waits, mid-game, across the restart
        with connect(f"{websocket_base(first.url)}/ws/{made['code']}") as watcher:
            watcher.send(json.dumps({"type": "hello", "token": None}))
            watcher.recv(timeout=GUARD)
            first.process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    watcher.recv(timeout=GUARD)
        assert closed.value.rcvd.code == 1012
        # drained, then ended by the signal it was sent (uvicorn raises it again once it shut down)
        assert first.process.wait(timeout=GUARD) == -signal.SIGTERM
        log = (Path(first._folder.name) / "server.log").read_text()
        assert "draining" in log and "Application shutdown complete" in log
    finally:
        first.__exit__(None, None, None)
    with codecrack_server(db, port=port, **settings) as again:
        player.paused.clear()
        player.finish()
        assert player.reconnections >= 1
        player.url = again.url
        player.check_against_record()

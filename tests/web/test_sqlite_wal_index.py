"""SQLite's WAL index (the ``-shm`` file beside the database) damaged or unusable (issue 24 §5):
the server says so clearly in its log instead of dying of SIGBUS in silence, and loses nothing."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx

from codecrack.loadtest.target import codecrack_server

from .test_refused_setups import refused, serve

GUARD = 60.0  # seconds a test waits for anything at most (a hang guard, no timing claim)
HUMAN = {"kind": "human"}


def test_a_truncated_wal_index_stops_the_server_with_a_clear_message_and_loses_nothing(tmp_path):
    database = tmp_path / "codecrack.db"
    url = f"sqlite:///{database}"
    with codecrack_server(url) as server:
        made = httpx.post(
            f"{server.url}/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN], "sit": 0}, timeout=GUARD
        )
        code = made.json()["code"]
        os.truncate(f"{database}-shm", 0)  # what SQLite has mapped in memory is gone
        try:  # a new table is a transaction at once (a table's info may come from memory)
            httpx.post(f"{server.url}/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN]}, timeout=GUARD)
        except httpx.HTTPError:
            pass  # the server stopped before it answered
        server.process.wait(timeout=GUARD)
        log = (Path(server._folder.name) / "server.log").read_text()
        assert server.process.returncode != -signal.SIGBUS, log[-2000:]
        assert f"{database}-shm" in log and "WAL index" in log, log[-2000:]
    with codecrack_server(url) as server:  # started again: every stored seat is there
        seats = httpx.get(f"{server.url}/api/tables/{code}", timeout=GUARD).json()["seats"]
        assert seats[0]["claimed"]


def test_a_wal_index_that_cannot_be_used_is_refused_at_start_up(tmp_path):
    database = tmp_path / "codecrack.db"
    Path(f"{database}-shm").mkdir()  # not a file SQLite can map
    assert refused(serve(f"sqlite:///{database}"), f"{database}-shm", "WAL index")

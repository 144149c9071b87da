"""``/healthz`` and ``/readyz`` (issue 29 §2): readiness fails, naming the check, while the instance
drains, while its database is behind this codecrack's migrations, while PostgreSQL is down and while
the writer cannot commit; and it passes again once the cause is gone. A hung event loop fails
``/healthz`` and the image's own HEALTHCHECK command, where a TCP check still passes."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from codecrack.web import health
from codecrack.web.app import create_app
from codecrack.web.migrate import head_revision
from tests.web.conftest import fast_config

from ..cluster.services import GUARD, wait_until
from ..web.browser import served

HUMAN = {"kind": "human"}
CONTAINERFILE = Path(__file__).resolve().parents[2] / "deploy" / "Containerfile"
PROBE_SECONDS = 2.0  # what a liveness probe waits for /healthz (docs/deploy.md, "Health")


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(fast_config(tmp_path))) as test_client:
        yield test_client


def readiness(client) -> tuple[int, list[str]]:
    answer = client.get("/readyz")
    return answer.status_code, answer.json().get("failing", [])


def test_a_running_instance_is_alive_and_ready(client):
    assert client.get("/healthz").json() == {"alive": True}
    assert readiness(client) == (200, [])


def test_a_draining_instance_is_alive_but_not_ready(client):
    client.app.state.drain.active = True
    assert client.get("/healthz").status_code == 200
    assert readiness(client) == (503, ["draining"])


def test_a_database_behind_the_migrations_is_not_ready(client):
    engine = client.app.state.hub.engine
    with engine.begin() as db:
        db.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    assert readiness(client) == (503, ["migrations"])
    with engine.begin() as db:
        db.execute(text("UPDATE alembic_version SET version_num = :head"), {"head": head_revision()})
    assert readiness(client) == (200, [])


def test_an_instance_whose_postgresql_is_down_is_not_ready(tmp_path, postgres, postgres_url):
    with TestClient(create_app(fast_config(tmp_path, db_url=postgres_url))) as client:
        assert readiness(client) == (200, [])
        postgres.stop()
        try:
            assert readiness(client) == (503, ["database"])
        finally:
            postgres.start()
        assert readiness(client) == (200, [])


@contextmanager
def creating_a_table(client) -> Iterator[list[int]]:
    """A table is created in another thread while the block runs (its write may be held there);
    the list gets the answer's status once the thread is joined at the block's end."""
    created: list[int] = []
    creating = threading.Thread(
        target=lambda: created.append(
            client.post("/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN]}).status_code
        )
    )
    creating.start()
    try:
        yield created
    finally:
        creating.join(GUARD)


def test_a_writer_that_cannot_commit_is_not_ready(tmp_path, monkeypatch):
    """Another process holds the SQLite file's write lock: a new table's write waits, and once it
    has waited longer than the limit the instance is not ready; once the lock goes, it is again."""
    monkeypatch.setattr(health, "WRITER_STALL_SECONDS", 0.2)
    with TestClient(create_app(fast_config(tmp_path))) as client:
        blocker = sqlite3.connect(tmp_path / "web.db", isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        with creating_a_table(client):
            try:
                wait_until(lambda: "writer" in readiness(client)[1], "the stalled writer shows")
            finally:
                blocker.execute("ROLLBACK")
                blocker.close()
        wait_until(lambda: readiness(client) == (200, []), "ready again")


def image_health_check(port: int) -> int:
    """The exit status of the image's HEALTHCHECK command (deploy/Containerfile), run here against ``port``."""
    command = json.loads(re.search(r"HEALTHCHECK .*?CMD (\[.*?\])$", CONTAINERFILE.read_text(), re.S | re.M)[1])
    assert command[0] == "python3"
    done = subprocess.run(
        [sys.executable, *command[1:]],
        env={**os.environ, "CODECRACK_PORT": str(port)},
        timeout=GUARD,
        capture_output=True,
    )
    return done.returncode


def alive(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=PROBE_SECONDS).json() == {"alive": True}
    except httpx.TimeoutException:
        return False


def test_a_hung_event_loop_fails_healthz_and_the_images_health_check(tmp_path):
    """The server's event loop is made to block (as a call that never yields would): the port still
    takes TCP connections, but ``/healthz`` and the image's HEALTHCHECK fail; once the loop runs
    again, both pass."""
    with served(create_app(fast_config(tmp_path))) as (server, url):
        port = int(url.rsplit(":", 1)[1])
        assert alive(url) and image_health_check(port) == 0
        hung, release = threading.Event(), threading.Event()

        def hang() -> None:
            hung.set()
            release.wait(GUARD)

        server.servers[0].get_loop().call_soon_threadsafe(hang)
        assert hung.wait(GUARD)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=GUARD).close()  # a TCP check passes
            assert not alive(url)
            assert image_health_check(port) != 0
        finally:
            release.set()
        wait_until(lambda: alive(url), "alive again")
        assert image_health_check(port) == 0

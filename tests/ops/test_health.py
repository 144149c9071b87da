"""``/healthz`` and ``/readyz`` (issue 29 §2): readiness fails, naming the check, while the instance
drains, while its database is behind this codecrack's migrations, while PostgreSQL is down and while
the writer cannot commit; and it passes again once the cause is gone."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from codecrack.web import health
from codecrack.web.app import create_app
from codecrack.web.migrate import head_revision
from tests.web.conftest import fast_config

from ..cluster.services import wait_until

HUMAN = {"kind": "human"}


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


def test_a_writer_that_cannot_commit_is_not_ready(tmp_path, monkeypatch):
    """Another process holds the SQLite file's write lock: a new table's write waits, and once it
    has waited longer than the limit the instance is not ready; once the lock goes, it is again."""
    monkeypatch.setattr(health, "WRITER_STALL_SECONDS", 0.2)
    with TestClient(create_app(fast_config(tmp_path))) as client:
        blocker = sqlite3.connect(tmp_path / "web.db", isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        created: list[int] = []
        creating = threading.Thread(
            target=lambda: created.append(
                client.post("/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN]}).status_code
            )
        )
        creating.start()
        try:
            wait_until(lambda: "writer" in readiness(client)[1], "the stalled writer shows")
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        creating.join()
        wait_until(lambda: readiness(client) == (200, []), "ready again")

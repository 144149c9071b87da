"""Per-address limits are counted in Redis when instances share one (issue 24 §4): a client
spreading its requests over the instances gets no more than the limit in all."""

import pytest
import redis
from fastapi.testclient import TestClient

from codecrack.core import registry
from codecrack.web.app import create_app

from ..web.conftest import fast_config
from ..web.test_limits import closed_with
from ..web.wsclient import HUMAN, RANDOM, seated
from .services import wait_until


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "tests.core.toy_game:ToyGame")


TOY = {"game": "toy", "seats": [RANDOM, RANDOM], "options": {"target": 3}}


def two_instances(tmp_path, postgres_url, redis_url, **limits):
    return [
        TestClient(
            create_app(fast_config(tmp_path, db_url=postgres_url, redis_url=redis_url, instance_name=name, **limits))
        )
        for name in ("a", "b")
    ]


def test_table_creations_are_counted_across_instances(tmp_path, postgres_url, redis_url):
    """Before: each instance counted its own, so two instances let a client make twice the limit."""
    a, b = two_instances(tmp_path, postgres_url, redis_url, tables_per_minute=3)
    with a, b:
        answers = [client.post("/api/tables", json=TOY).status_code for client in (a, b, a, b)]
        assert answers == [200, 200, 200, 429]
        assert b.post("/api/tutorials/coda", json={}).status_code == 429  # tutorials count too


def test_replay_pages_are_counted_across_instances(tmp_path, postgres_url, redis_url):
    a, b = two_instances(tmp_path, postgres_url, redis_url, replays_per_minute=2)
    with a, b:
        code = a.post("/api/tables", json=TOY).json()["code"]
        while not a.get(f"/api/tables/{code}").json()["over"]:
            pass
        assert [client.get(f"/api/tables/{code}/replay").status_code for client in (a, b, a)] == [200, 200, 429]


def test_open_sockets_are_counted_across_instances(tmp_path, postgres_url, redis_url):
    """Before: each instance let one address open connections_per_address sockets of its own."""
    a, b = two_instances(tmp_path, postgres_url, redis_url, connections_per_address=2)
    shared = redis.Redis.from_url(redis_url)
    with a, b:
        code = a.post("/api/tables", json={**TOY, "seats": [HUMAN, HUMAN]}).json()["code"]
        with seated(a, code):
            with seated(b, code):
                with b.websocket_connect(f"/ws/{code}") as third:
                    assert "connections" in closed_with(third, 1008)
            wait_until(lambda: shared.zcard("codecrack:open:sockets:testclient") == 1, "the closed socket counted out")
            with seated(b, code) as again:  # a closed one no longer counts
                assert again.view is not None

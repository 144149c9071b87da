"""``/readyz`` of an instance with Redis (issue 29 §2): not ready while Redis does not answer, ready
again once it does."""

from __future__ import annotations

from fastapi.testclient import TestClient

from codecrack.web.app import create_app
from tests.web.conftest import fast_config

from .services import wait_until


def readiness(client) -> tuple[int, list[str]]:
    answer = client.get("/readyz")
    return answer.status_code, answer.json().get("failing", [])


def test_an_instance_whose_redis_is_down_is_not_ready(tmp_path, postgres_url, redis_server, redis_url):
    with TestClient(create_app(fast_config(tmp_path, db_url=postgres_url, redis_url=redis_url))) as client:
        assert readiness(client) == (200, [])
        redis_server.kill()
        try:
            assert readiness(client) == (503, ["redis"])
        finally:
            redis_server.start()
        wait_until(lambda: readiness(client) == (200, []), "ready once Redis is back")

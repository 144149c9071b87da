"""Fixtures of the cluster tests: a Redis per test process; PostgreSQL comes from tests/conftest.py."""

import pytest

from .services import RedisServer


@pytest.fixture(scope="session")
def redis_server():
    with RedisServer() as server:
        yield server


@pytest.fixture
def redis_url(redis_server):
    """The running test Redis, emptied (a test that killed it failed before starting it again: start it)."""
    if not redis_server.answers():
        redis_server.start()
    redis_server.client().flushall()
    return redis_server.url

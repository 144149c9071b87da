"""``codecrack admin tables --redis`` and ``admin instances`` (issue 29 §6) on an instance with
Redis: the instance that drives a table is named."""

from __future__ import annotations

import httpx

from tests.ops.test_admin import admin

from .services import instance, wait_until

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}


def test_admin_names_the_instance_that_drives_a_table(postgres_url, redis_url):
    with instance(postgres_url, redis_url, "first") as server:
        code = httpx.post(f"{server.url}/api/tables", json={"game": "coda", "seats": [HUMAN, RANDOM]}).json()["code"]
        wait_until(lambda: f"first: 1 {code}" in admin(postgres_url, "instances", "--redis", redis_url).output, "shown")
        listed = admin(postgres_url, "tables", "--redis", redis_url).output
        assert code in listed and "first" in listed

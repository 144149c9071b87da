"""How an instance learns of the steps another one committed (cluster.py, table.py): the Redis
message carries the step's action, so a follower applies it without reading PostgreSQL; a
follower that missed a message (Redis restarted, the subscription was cut) sees a gap at the next
one and reads what it missed from PostgreSQL; and a table that is next used catches up too.

Two instances (hubs) in one process on a real PostgreSQL and a real Redis; the follower has one
connection (a fake socket) for the table, as an instance with a player would."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from codecrack.web.connections import Connection
from codecrack.web.hub import Hub

from ..web.conftest import fast_config, toy_registered  # noqa: F401 (a fixture: the toy game)
from ..web.test_connections import FakeSocket
from .services import GUARD

HUMANS = [{"kind": "human"}, {"kind": "human"}]
pytestmark = pytest.mark.usefixtures("toy_registered")
ADD = {"type": "add", "amount": 1}


def run_two_instances(tmp_path, postgres_url: str, redis_url: str, scenario) -> None:
    """``await scenario(maker, follower)``: two started instances on one database and one Redis."""

    async def main() -> None:
        hubs = [
            Hub(fast_config(tmp_path, db_url=postgres_url, redis_url=redis_url, instance_name=name, lease_seconds=1.0))
            for name in ("maker", "follower")
        ]
        for hub in hubs:
            await hub.start()
        try:
            await scenario(*hubs)
        finally:
            for hub in hubs:
                await hub.stop()

    asyncio.run(main())


async def until(ready, what: str) -> None:
    for _ in range(int(GUARD / 0.01)):
        if ready():
            return
        await asyncio.sleep(0.01)
    raise TimeoutError(what)


async def follow_with_a_viewer(maker: Hub, follower: Hub):
    """A new toy table on ``maker``, loaded and watched (one spectator) on ``follower``, which
    follows its channel; returns both copies, the spectator's socket, the list of the follower's
    reads of stored actions (each one's first step) and the task that sends to the socket."""
    table = await maker.create("toy", 2, {"target": 99, "first": 0}, HUMANS)
    copy = await follower.find(table.code)
    socket = FakeSocket()
    viewer = Connection(None, socket, send_timeout=GUARD)
    pumping = asyncio.get_running_loop().create_task(viewer.pump())
    copy.connect(viewer)
    await until(lambda: table.code in follower.fanout.channels.followed, "the follower follows the table")
    # its follow task (subscribe, then read what was stored meanwhile) and the viewer's presence
    # are done: a read of theirs would count below (under load, a 0.1 s sleep was not enough)
    await until(lambda: not follower.fanout.tasks, "the follower's background tasks are done")
    reads: list[int] = []
    since = follower.journal.since

    async def counted(code: str, step: int = 0) -> list[list[Any]]:
        reads.append(step)
        return await since(code, step)

    follower.journal.since = counted
    return table, copy, socket, reads, pumping


def steps_sent(socket: FakeSocket) -> list[int]:
    """The steps of the states and deltas sent so far: the viewer's pump sends them in a task of
    its own, after the table applied them, so a test waits for them."""
    return [message["step"] for message in map(json.loads, socket.sent) if message["type"] in ("state", "delta")]


def test_a_heard_step_is_applied_from_its_message_without_reading_the_database(tmp_path, postgres_url, redis_url):
    async def scenario(maker: Hub, follower: Hub) -> None:
        table, copy, socket, reads, _ = await follow_with_a_viewer(maker, follower)
        for seat in (0, 1, 0):
            assert await table.submit(seat, ADD) is None
        await until(lambda: copy.step == 3, "the follower applies the three steps")
        assert reads == []
        assert copy.game.record() == table.game.record()
        await until(lambda: len(steps_sent(socket)) >= 4, "the viewer's pump sends the three steps")
        assert steps_sent(socket) == [0, 1, 2, 3]

    run_two_instances(tmp_path, postgres_url, redis_url, scenario)


def test_a_missed_message_is_read_from_the_database_at_the_next_one(tmp_path, postgres_url, redis_url):
    """The follower misses step 1's message: step 2's message shows a gap, so it reads steps 1
    and 2 from PostgreSQL and shows them in order."""

    async def scenario(maker: Hub, follower: Hub) -> None:
        table, copy, socket, reads, _ = await follow_with_a_viewer(maker, follower)
        heard = follower.fanout.channels.heard
        missed: list[dict[str, Any]] = []
        follower.fanout.channels.heard = lambda code, message: (
            missed.append(message) if not missed else heard(code, message)
        )
        assert await table.submit(0, ADD) is None
        await until(lambda: missed, "step 1's message reaches the follower, which drops it")
        assert copy.step == 0
        assert await table.submit(1, ADD) is None
        await until(lambda: copy.step == 2, "the follower catches up at step 2's message")
        assert reads == [0]
        assert copy.game.record() == table.game.record()
        await until(lambda: len(steps_sent(socket)) >= 3, "the viewer's pump sends steps 1 and 2")
        assert steps_sent(socket) == [0, 1, 2]

    run_two_instances(tmp_path, postgres_url, redis_url, scenario)


def test_a_table_whose_last_message_was_missed_catches_up_when_next_used(tmp_path, postgres_url, redis_url):
    async def scenario(maker: Hub, follower: Hub) -> None:
        table, copy, _, reads, _ = await follow_with_a_viewer(maker, follower)
        follower.fanout.channels.heard = lambda code, message: None  # every message is lost
        assert await table.submit(0, ADD) is None
        await asyncio.sleep(0.2)
        assert copy.step == 0
        assert await follower.find(table.code) is copy
        assert copy.step == 1 and set(reads) == {0}  # from the database (the tick may read it too, under load)
        assert copy.game.record() == table.game.record()

    run_two_instances(tmp_path, postgres_url, redis_url, scenario)

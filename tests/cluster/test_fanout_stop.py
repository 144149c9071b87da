"""An instance's fan-out stops although one of its tasks swallowed the cancellation (redis-py may
turn a cancel into an error it raises or a ``None`` reply): session 3's CI hung for an hour in an
app's shutdown, its sender back in ``outbox.get()`` after the cancel it had swallowed."""

import asyncio

import pytest
from redis.asyncio import Redis

from codecrack.web.fanout_redis import RedisFanout


class SwallowsOneCancel:
    """What a call into a library may do once: take the cancel for an error, handle it, return."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.swallowed = False

    async def __call__(self, *args) -> None:
        self.started.set()
        if self.swallowed:
            await asyncio.sleep(3600)
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            self.swallowed = True


@pytest.mark.parametrize("task", ["_send", "_listen"])
def test_the_fanout_stops_although_a_task_swallowed_its_cancellation(redis_url, monkeypatch, task):
    async def nothing() -> None:
        pass

    async def scenario():
        client = Redis.from_url(redis_url)
        fanout = RedisFanout(client, "a", lambda code, message: None, nothing)
        call = SwallowsOneCancel()
        monkeypatch.setattr(fanout, task, call)
        fanout.start()
        await fanout.follow("ABCDE")
        fanout.publish("ABCDE", {"step": 1})
        await call.started.wait()
        await asyncio.wait_for(fanout.stop(), 20)  # before: it waited until cancelled a second time
        assert call.swallowed
        await client.aclose()

    asyncio.run(scenario())

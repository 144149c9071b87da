"""Redis pub/sub between instances: each committed step, seat claim or change of who is connected
is published on the table's channel, and every instance that holds the table follows it.

Publishing never waits for Redis: messages go to an outbox that one task sends in order, in
pipelined batches. A message that could not be sent (Redis down) is kept, the latest per table,
and sent again by :meth:`RedisFanout.resend`. The subscriber reconnects on its own after a lost
connection and then calls ``on_reconnect``: whatever was published meanwhile is lost, so the
listener catches up from the database.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from . import metrics
from .stopping import stop_tasks

log = logging.getLogger("codecrack.web")
CHANNEL_PREFIX = "codecrack:table:"
RECONNECT_PAUSE = 0.2  # seconds between attempts to reach Redis again

Heard = Callable[[str, dict[str, Any]], None]


def json_text(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def channel_of(code: str) -> str:
    """
    >>> channel_of("ABCDE")
    'codecrack:table:ABCDE'
    """
    return CHANNEL_PREFIX + code


class RedisFanout:
    """One instance's side of the fan-out: ``heard(code, message)`` gets every message another
    instance published on a followed table; ``on_reconnect()`` runs after the subscriber was cut
    off and has subscribed again."""

    def __init__(self, redis: Redis, instance: str, heard: Heard, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        self.redis = redis
        self.instance = instance
        self.heard = heard
        self.on_reconnect = on_reconnect
        self.own = (json_text({"from": instance})[:-1] + ",").encode()  # how this instance's messages begin
        self.followed: set[str] = set()
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.unsent: dict[str, str] = {}  # channel -> latest message that could not be sent
        self.pubsub = redis.pubsub(ignore_subscribe_messages=True)
        self.subscribed = asyncio.Event()  # set once the pub/sub connection has a subscription
        self.tasks: list[asyncio.Task] = []

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._send_forever()), loop.create_task(self._listen_forever())]

    async def stop(self) -> None:
        await stop_tasks(self.tasks)
        await self.pubsub.aclose()

    # -- publishing ---------------------------------------------------------------------
    def publish(self, code: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for the other instances that follow table ``code``."""
        self.outbox.put_nowait((channel_of(code), json_text({"from": self.instance, **message})))

    async def _send_forever(self) -> None:
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            await self._send(batch)

    async def _send(self, batch: list[tuple[str, str]]) -> None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for channel, text in batch:
                    pipe.publish(channel, text)
                await pipe.execute()
            metrics.fanout("sent", len(batch))
        except (RedisError, OSError) as error:
            log.warning("could not publish %d message(s) to Redis: %s", len(batch), error)
            self.unsent.update(batch)

    async def resend(self) -> None:
        """Send again the latest message of each table whose publishing failed."""
        if self.unsent:
            batch, self.unsent = list(self.unsent.items()), {}
            await self._send(batch)

    # -- following ----------------------------------------------------------------------
    async def follow(self, code: str) -> None:
        """Hear table ``code``'s messages from now on."""
        self.followed.add(code)
        try:
            await self.pubsub.subscribe(channel_of(code))
        except (RedisError, OSError) as error:  # the listener fails too, and subscribes again
            log.warning("could not follow table %s: %s", code, error)
        self.subscribed.set()

    async def unfollow(self, code: str) -> None:
        self.followed.discard(code)
        try:
            await self.pubsub.unsubscribe(channel_of(code))
        except (RedisError, OSError) as error:
            log.warning("could not stop following table %s: %s", code, error)

    async def _listen_forever(self) -> None:
        while True:
            try:
                await self._listen()
            except (RedisError, OSError, RuntimeError) as error:  # RuntimeError: never connected
                log.warning("lost the Redis subscription: %s", error)
                await self._subscribe_again()
                await self.on_reconnect()

    async def _listen(self) -> None:
        await self.subscribed.wait()
        while True:
            message = await self.pubsub.get_message(timeout=1.0)
            if message is None or message["type"] != "message":
                continue
            if message["data"].startswith(self.own):  # Redis sends a follower its own messages too
                continue
            metrics.fanout("heard")
            self.heard(message["channel"].decode().removeprefix(CHANNEL_PREFIX), json.loads(message["data"]))

    async def _subscribe_again(self) -> None:
        """A fresh pub/sub connection subscribed to every followed table, once Redis answers."""
        while True:
            await asyncio.sleep(RECONNECT_PAUSE)
            try:
                await self.pubsub.aclose()
                self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                self.subscribed.clear()
                if self.followed:
                    await self.pubsub.subscribe(*[channel_of(code) for code in self.followed])
                    self.subscribed.set()
                return
            except (RedisError, OSError) as error:
                log.debug("Redis is not back yet: %s", error)

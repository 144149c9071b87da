"""One instance among several on one PostgreSQL database: what it tells the others through Redis,
what it does when it hears from them, and which tables it drives.

- **Fan-out** (:mod:`.fanout_redis`): after each commit the instance publishes the step (with the
  action); an instance that holds the table applies it (or reads what it missed from the database)
  and sends its own connections their views. Seat claims and rematches are published too (the
  others re-read the table's tokens and row), and so are a change of who is connected and each
  chat line (sent to the connections there).
- **Leases** (:mod:`.leases`): a table's bots, clock and takeovers run on the one instance that
  holds its lease. Every ``lease_seconds / 3`` the instance renews its leases and tries to take the
  free ones of its unfinished live tables; a taken lease resumes the clock from the stored time of
  the table's last action, so a survivor carries on where a dead instance stopped. A lease that
  lapsed (its owner died) is found in Redis, and its table loaded and taken over, even if no
  client of this instance asks for it.
- **Presence**: a sorted set per table, ``codecrack:seats:CODE``, scores each ``seat:instance``
  with the time its entry lapses; the driver treats a seat connected on any instance as present.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from .fanout_redis import RedisFanout
from .leases import Leases
from .shared_limits import RedisCounter, RedisWindow
from .stopping import stop_tasks

if TYPE_CHECKING:
    from .cache import LiveTables
    from .messages import ChatLine
    from .table import LiveTable

log = logging.getLogger("codecrack.web")
PRESENCE_PREFIX = "codecrack:seats:"
ADOPTED_PER_TICK = 16  # tables of dead instances loaded here at most per tick


def presence_key(code: str) -> str:
    return PRESENCE_PREFIX + code


def players_elsewhere(table: LiveTable) -> bool:
    """Whether the table's players are all on other instances (this one has no connection for it)."""
    return not table.connections and bool(table.elsewhere)


class Cluster:
    """The Redis :class:`~codecrack.web.fanout.Fanout` of one instance, named ``name`` (unique
    among the instances) or at random. It is given the instance's live ``tables`` and what to do
    when it hears of them: ``reread(table)`` (another instance claimed a seat or linked a rematch),
    ``take_over(table)`` (this instance took the table's lease), ``unload(table)`` (its players
    are all elsewhere), ``hear_chat(table, line, off)`` (a chat line was said elsewhere) and
    ``adopt(code)`` (load a table whose lease lapsed; false if it needs no driver)."""

    drives_alone = False  # a table is driven where its lease is held

    def __init__(
        self,
        redis_url: str,
        lease_seconds: float,
        name: str | None = None,
        *,
        tables: LiveTables,
        reread: Callable[[LiveTable], Coroutine[Any, Any, None]],
        take_over: Callable[[LiveTable], Coroutine[Any, Any, None]],
        unload: Callable[[LiveTable], None],
        hear_chat: Callable[[LiveTable, ChatLine, bool], None],
        adopt: Callable[[str], Coroutine[Any, Any, bool]],
    ) -> None:
        self.tables = tables
        self.reread = reread
        self.take_over = take_over
        self.unload = unload
        self.hear_chat = hear_chat
        self.adopt = adopt
        self.instance = name or secrets.token_hex(6)
        self.lease_seconds = lease_seconds
        # No silent retries: a lost connection must show, so that what was missed is caught up.
        self.redis = Redis.from_url(
            redis_url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=1.0, socket_timeout=max(1.0, lease_seconds)
        )
        self.channels = RedisFanout(self.redis, self.instance, self.heard, self.reconnected)
        self.leases = Leases(self.redis, self.instance, lease_seconds)
        self.driven: set[str] = set()
        self.renewed_at = time.monotonic()
        self.tasks: set[asyncio.Task] = set()
        self.ticker: asyncio.Task | None = None
        self.counters: list[RedisCounter] = []  # per-address connection counts to renew

    # -- life cycle -------------------------------------------------------------------
    async def start(self) -> None:
        await self.redis.ping()  # a wrong URL stops the server at start-up, with Redis's own error
        self.channels.start()
        self.ticker = asyncio.get_running_loop().create_task(self.tick_forever())

    async def stop(self) -> None:
        """Hand the leases over at once instead of letting them lapse."""
        await stop_tasks([*self.tasks, *([self.ticker] if self.ticker else [])])
        try:
            await self.leases.release(self.driven)
        except (RedisError, OSError) as error:
            log.warning("could not release the leases: %s", error)
        await self.channels.stop()
        await self.redis.aclose()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run ``coroutine`` in the background; its failure is logged."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster task failed", exc_info=task.exception())

    # -- what this instance tells the others ---------------------------------------------
    def follow(self, table: LiveTable) -> None:
        """A table joined this instance's live tables: follow it, and try to drive it."""
        self.spawn(self._follow(table))

    async def _follow(self, table: LiveTable) -> None:
        await self.channels.follow(table.code)
        await table.catch_up()  # a step committed between loading and following
        await self.refresh_presence([table])
        await self.try_to_drive([table])

    def unfollow(self, table: LiveTable) -> None:
        """A table left this instance's live tables: stop following it, give up its lease and tell
        the others that it is free."""
        self.spawn(self._unfollow(table.code, table.code in self.driven))
        self.driven.discard(table.code)

    async def _unfollow(self, code: str, driven: bool) -> None:
        await self.channels.unfollow(code)
        if driven:
            await self.leases.release([code])
            self.channels.publish(code, {"kind": "free"})

    def committed(self, table: LiveTable, seat: int, action: Any) -> None:
        self.channels.publish(table.code, {"kind": "step", "step": table.step, "move": [seat, action]})

    def changed(self, table: LiveTable) -> None:
        """A seat was claimed or a rematch linked: the others re-read the table's row and tokens."""
        self.channels.publish(table.code, {"kind": "table"})

    def presence_changed(self, table: LiveTable) -> None:
        self.spawn(self._presence_changed(table))

    def said(self, table: LiveTable, line: ChatLine, off: bool) -> None:
        self.channels.publish(table.code, {"kind": "chat", "line": line, "off": off})

    async def _presence_changed(self, table: LiveTable) -> None:
        await self.mark_present([table])
        self.channels.publish(table.code, {"kind": "presence"})

    async def sync(self, table: LiveTable) -> None:
        """Bring a loaded table up to what is stored before it is used: this instance applies the
        steps of tables nobody here watches only then (:meth:`heard_step`), and the message of a
        step committed just before its instance died may never have been sent."""
        await table.catch_up()

    async def sync_seats(self, table: LiveTable) -> None:
        await self.reread(table)

    def window(self, name: str, limit: int, seconds: float) -> RedisWindow:
        return RedisWindow(self.redis, name, limit, seconds)

    def counter(self, name: str, limit: int) -> RedisCounter:
        counter = RedisCounter(self.redis, name, limit, ttl=3 * self.lease_seconds)
        self.counters.append(counter)
        return counter

    async def mark_present(self, tables: list[LiveTable]) -> None:
        """Write this instance's connected seats of ``tables``, each until ``lease_seconds`` from now."""
        lapses = (time.time() + self.lease_seconds) * 1000
        async with self.redis.pipeline(transaction=False) as pipe:
            for table in tables:
                key = presence_key(table.code)
                pipe.zremrangebyscore(key, "-inf", time.time() * 1000)
                for seat in range(table.row.players):
                    member = f"{seat}:{self.instance}"
                    if table.connected_here(seat):
                        pipe.zadd(key, {member: lapses})
                    else:
                        pipe.zrem(key, member)
                pipe.pexpire(key, int(self.lease_seconds * 1000) * 2)
            await pipe.execute()

    # -- what this instance hears --------------------------------------------------------
    def heard(self, code: str, message: dict[str, Any]) -> None:
        table = self.tables.get(code)
        if table is None:
            return
        if message["kind"] == "step":
            self.heard_step(table, message["step"], message["move"])
        elif message["kind"] == "free":
            self.spawn(self.try_to_drive([table]))
        elif message["kind"] == "table":
            self.spawn(self.reread(table))
        elif message["kind"] == "chat":
            self.hear_chat(table, message["line"], message["off"])
        else:
            self.spawn(self.presence_news(table))

    async def presence_news(self, table: LiveTable) -> None:
        """Someone connected or left on another instance: read who is where, and let the table go
        at once if its players are all elsewhere (see :meth:`hand_over`)."""
        await self.refresh_presence([table])
        self.hand_over([table])

    def heard_step(self, table: LiveTable, step: int, move: list[Any]) -> None:
        """Apply a step at once where someone sees it (a connection here, or this instance drives
        the table); else leave it: the table catches up when it is next used (:meth:`sync`)."""
        if table.connections or table.code in self.driven:
            self.spawn(table.catch_up(step, move))

    async def reconnected(self) -> None:
        """Back on Redis after an outage: catch up every live table from the database."""
        for table in self.tables.values():
            self.spawn(table.catch_up())
            self.spawn(self.reread(table))
        self.spawn(self.refresh_presence(self.tables.values()))

    async def refresh_presence(self, tables: Iterable[LiveTable]) -> None:
        """Read which seats of ``tables`` are connected on other instances."""
        tables = list(tables)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for table in tables:
                    pipe.zrangebyscore(presence_key(table.code), time.time() * 1000, "+inf")
                found = await pipe.execute()
        except (RedisError, OSError) as error:  # what is known stays as it was
            log.warning("could not read who is connected elsewhere: %s", error)
            return
        for table, members in zip(tables, found):
            entries = [member.decode().split(":") for member in members]
            table.seen_elsewhere({int(seat) for seat, instance in entries if instance != self.instance})

    # -- leases -------------------------------------------------------------------------
    async def tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.tick()
            except (RedisError, OSError) as error:
                log.warning("Redis did not answer: %s", error)
                self.lapse_if_overdue()

    async def tick(self) -> None:
        """Send what could not be published, renew the leases, take free ones, refresh presence."""
        await self.channels.resend()
        live = self.tables.values()
        ended = [table.code for table in live if table.over and table.code in self.driven]
        if ended:
            await self.leases.release(ended)
            self.driven.difference_update(ended)
        self.hand_over(live)
        live = self.tables.values()
        kept = await self.leases.renew(self.driven)
        self.renewed_at = time.monotonic()
        for code in self.driven - kept:
            self.stop_driving(code)
        await self.try_to_drive(live)
        await self.take_lapsed()
        await self.mark_present([table for table in live if table.connections])  # the rest left on disconnect
        await self.refresh_presence(table for table in live if table.code in self.driven)
        for counter in self.counters:
            await counter.renew()

    def hand_over(self, tables: list[LiveTable]) -> None:
        """Unload the tables whose players are all on other instances: the driver moves to where
        the players are (a lease held here is given up, and the others told), and this instance
        stops following steps nobody here sees. Whoever asks for such a table here later loads it
        again from the database."""
        for table in tables:
            if players_elsewhere(table):
                self.unload(table)

    async def try_to_drive(self, tables: list[LiveTable]) -> None:
        free = [
            table
            for table in tables
            if not table.over and table.code not in self.driven and not players_elsewhere(table)
        ]
        if not free:
            return
        taken = await self.leases.acquire(table.code for table in free)
        for table in free:
            if table.code in taken:
                self.driven.add(table.code)
                self.spawn(self.take_over(table))

    async def take_lapsed(self) -> None:
        """Load the tables whose lease lapsed, which no instance drives any more: loading one
        here takes its lease (:meth:`try_to_drive`). The finished and gone ones need no driver."""
        lapsed = [code for code in await self.leases.lapsed(ADOPTED_PER_TICK) if code not in self.tables]
        done = []
        for code in lapsed:
            log.info("taking over table %s, whose driver's lease lapsed", code)
            try:
                if not await self.adopt(code):
                    done.append(code)
            except Exception:  # the next tick tries again
                log.exception("could not take over table %s", code)
        await self.leases.forget(done)

    def stop_driving(self, code: str) -> None:
        self.driven.discard(code)
        table = self.tables.get(code)
        if table is not None:
            table.stop_driving()
        log.warning("lost the lease of table %s", code)

    def lapse_if_overdue(self) -> None:
        """Without Redis, leases cannot be renewed: once they may have lapsed, stop driving, since
        another instance may have taken them."""
        if time.monotonic() - self.renewed_at >= self.lease_seconds:
            for code in list(self.driven):
                self.stop_driving(code)

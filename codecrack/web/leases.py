"""Driver leases in Redis: which one instance runs a table's bots, clocks and takeovers.

A lease is a key ``codecrack:lease:CODE`` holding the owner's instance id with a time to live:
taken with ``SET NX PX``, renewed and released only by its owner (a Lua script checks the owner
and acts in one step). An instance that dies stops renewing, so its leases lapse after
``ttl`` seconds and another instance takes them.

Every lease held is also scored in the sorted set ``codecrack:leased`` with the time it lapses,
so that a live instance finds the tables of a dead one (:meth:`Leases.lapsed`) and takes them
over even when none of its clients asks for them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from redis.asyncio import Redis

from . import metrics

LEASE_PREFIX = "codecrack:lease:"
LEASED = "codecrack:leased"  # sorted set: code -> when its lease lapses (ms since the epoch)

# Renew (PEXPIRE) or release (DEL) a lease only while ARGV[1] still owns it.
RENEW_IF_OWNER = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
RELEASE_IF_OWNER = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def lease_key(code: str) -> str:
    """
    >>> lease_key("ABCDE")
    'codecrack:lease:ABCDE'
    """
    return LEASE_PREFIX + code


class Leases:
    """The leases one instance (``owner``) takes, renews and releases; ``ttl`` in seconds."""

    def __init__(self, redis: Redis, owner: str, ttl: float) -> None:
        self.redis = redis
        self.owner = owner
        self.ttl_ms = max(1, int(ttl * 1000))
        self._renew = redis.register_script(RENEW_IF_OWNER)
        self._release = redis.register_script(RELEASE_IF_OWNER)

    async def acquire(self, codes: Iterable[str]) -> set[str]:
        """Try to take the free leases among ``codes``; returns the codes taken."""
        codes = list(codes)
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.set(lease_key(code), self.owner, nx=True, px=self.ttl_ms)
            taken = {code for code, ok in zip(codes, await pipe.execute()) if ok}
        await self.score(taken)
        metrics.leases("taken", len(taken))
        return taken

    async def renew(self, codes: Iterable[str]) -> set[str]:
        """Extend the leases among ``codes`` that this instance still owns; returns those codes."""
        codes = list(codes)
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                await self._renew(keys=[lease_key(code)], args=[self.owner, self.ttl_ms], client=pipe)
            renewed = {code for code, ok in zip(codes, await pipe.execute()) if ok}
        await self.score(renewed)
        metrics.leases("lost", len(codes) - len(renewed))
        return renewed

    async def score(self, codes: set[str]) -> None:
        """Write when the leases of ``codes``, just taken or renewed, lapse."""
        if codes:
            lapses = int(time.time() * 1000) + self.ttl_ms
            await self.redis.zadd(LEASED, {code: lapses for code in codes})

    async def lapsed(self, limit: int) -> list[str]:
        """At most ``limit`` codes whose lease lapsed without being released (their owner died),
        the oldest first, and that nobody took since."""
        found = await self.redis.zrangebyscore(LEASED, "-inf", int(time.time() * 1000), start=0, num=limit)
        codes = [code.decode() for code in found if isinstance(code, bytes)]
        if not codes:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.exists(lease_key(code))
            held = await pipe.execute()
        return [code for code, taken in zip(codes, held) if not taken]

    async def forget(self, codes: Iterable[str]) -> None:
        """No one needs to take over ``codes`` (finished or gone)."""
        codes = list(codes)
        if codes:
            await self.redis.zrem(LEASED, *codes)

    async def release(self, codes: Iterable[str]) -> None:
        """Give up the leases among ``codes`` that this instance owns (no one else's): nobody
        takes them over unless it uses the table."""
        codes = list(codes)
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                await self._release(keys=[lease_key(code)], args=[self.owner], client=pipe)
            released = await pipe.execute()
        await self.forget(code for code, ok in zip(codes, released) if ok)
        metrics.leases("released", sum(1 for ok in released if ok))

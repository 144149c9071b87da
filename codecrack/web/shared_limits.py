"""Per-address limits counted in Redis, so that every instance sharing it counts together.

A rate window is a sorted set ``codecrack:rate:NAME:ADDRESS`` of the events of the last ``seconds``
(scored by Redis's own clock, so the instances' clocks need not agree); a Lua script drops the
old ones, refuses past ``limit`` and adds the new one in one step, and the key expires once idle.
Open connections are a sorted set ``codecrack:open:NAME:ADDRESS`` of one member per connection,
scored by the moment it lapses: each instance renews its own members every few seconds
(:meth:`RedisCounter.renew`), so the connections of an instance that died lapse on their own.
When Redis does not answer, the instance counts alone (:mod:`.limits`) until it does.
"""

from __future__ import annotations

import logging
import secrets

from redis.asyncio import Redis
from redis.exceptions import RedisError

from .limits import AddressCounter, LocalWindow

log = logging.getLogger("codecrack.web")

# KEYS[1]: the window; ARGV: limit, window in ms, a unique member. 1 if allowed (and counted), else 0.
ALLOW = """
local now = redis.call('time')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('zremrangebyscore', KEYS[1], '-inf', ms - tonumber(ARGV[2]))
if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('zadd', KEYS[1], ms, ARGV[3])
redis.call('pexpire', KEYS[1], ARGV[2])
return 1
"""

# KEYS[1]: the address's set; ARGV: limit, time to live in ms, the member. 1 if it entered, else 0.
ENTER = """
local now = redis.call('time')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('zremrangebyscore', KEYS[1], '-inf', ms)
if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('zadd', KEYS[1], ms + tonumber(ARGV[2]), ARGV[3])
redis.call('pexpire', KEYS[1], ARGV[2])
return 1
"""
# KEYS: sets; ARGV[1]: time to live in ms, then one member per key: pushes their lapse back.
RENEW = """
local now = redis.call('time')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('zadd', key, 'XX', ms + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('pexpire', key, ARGV[1])
end
return 0
"""


class RedisWindow:
    """At most ``limit`` events per address in any ``seconds``, across the instances."""

    def __init__(self, redis: Redis, name: str, limit: int, seconds: float) -> None:
        self.prefix = f"codecrack:rate:{name}:"
        self.limit, self.window_ms = limit, max(1, int(seconds * 1000))
        self.script = redis.register_script(ALLOW)
        self.alone = LocalWindow(limit, seconds)  # while Redis does not answer
        self.events = 0

    async def allow(self, address: str) -> bool:
        self.events += 1
        member = f"{secrets.token_hex(4)}:{self.events}"
        try:
            return bool(await self.script(keys=[self.prefix + address], args=[self.limit, self.window_ms, member]))
        except (RedisError, OSError) as error:
            log.warning("rate limit %s counted on this instance alone: %s", self.prefix, error)
            return await self.alone.allow(address)


class RedisCounter:
    """At most ``limit`` open connections per address, across the instances; this instance's
    entries lapse ``ttl`` seconds after their last :meth:`renew`."""

    def __init__(self, redis: Redis, name: str, limit: int, ttl: float) -> None:
        self.redis = redis
        self.prefix = f"codecrack:open:{name}:"
        self.limit, self.ttl_ms = limit, max(1, int(ttl * 1000))
        self._enter = redis.register_script(ENTER)
        self._renew = redis.register_script(RENEW)
        self.alone = AddressCounter(limit)  # while Redis does not answer
        self.mine: dict[str, list[str]] = {}  # address -> this instance's members
        self.opened = 0

    async def enter(self, address: str) -> bool:
        self.opened += 1
        member = f"{secrets.token_hex(4)}:{self.opened}"
        try:
            entered = await self._enter(keys=[self.prefix + address], args=[self.limit, self.ttl_ms, member])
        except (RedisError, OSError) as error:
            log.warning("connections counted on this instance alone: %s", error)
            entered = self.alone.enter(address)
            member = ""  # counted alone: left alone
        if entered:
            self.mine.setdefault(address, []).append(member)
        return bool(entered)

    async def leave(self, address: str) -> None:
        members = self.mine[address]
        member = members.pop()
        if not members:
            del self.mine[address]
        if not member:
            return self.alone.leave(address)
        try:
            await self.redis.zrem(self.prefix + address, member)
        except (RedisError, OSError) as error:  # it lapses on its own
            log.warning("could not count a connection out: %s", error)

    async def renew(self) -> None:
        """Push back the lapse of this instance's connections (the cluster's tick calls it)."""
        pairs = [
            (self.prefix + address, member) for address, members in self.mine.items() for member in members if member
        ]
        if pairs:
            await self._renew(keys=[key for key, _ in pairs], args=[self.ttl_ms, *(member for _, member in pairs)])

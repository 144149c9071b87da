"""Per-address rate limits counted in Redis, so that every instance sharing it counts together.

A window is a sorted set ``codecrack:rate:NAME:ADDRESS`` of the events of the last ``seconds``
(scored by Redis's own clock, so the instances' clocks need not agree); a Lua script drops the
old ones, refuses past ``limit`` and adds the new one in one step, and the key expires once idle.
When Redis does not answer, the instance counts alone (:class:`~.limits.RateWindow`) until it does.
"""

from __future__ import annotations

import logging
import secrets

from redis.asyncio import Redis
from redis.exceptions import RedisError

from .limits import LocalWindow

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

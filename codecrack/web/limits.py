"""Counters behind the server's limits: messages per second per connection, tables per client
address per minute, open connections per address. Time is passed in, so tests need no clock.

>>> bucket = TokenBucket(rate=2, burst=2, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(0.5)]
[True, True, False, True]
>>> window = RateWindow(limit=2, seconds=60)
>>> [window.allow("a", 0), window.allow("a", 1), window.allow("a", 2), window.allow("b", 2), window.allow("a", 61)]
[True, True, False, True, True]
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Protocol


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up; each message takes one."""

    __slots__ = ("rate", "burst", "tokens", "at")  # one per socket: no dict

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RateWindow:
    """At most ``limit`` events per key in any ``seconds``; keys with no recent event are forgotten
    (a sweep at most once per ``seconds``, so each call stays cheap however many keys there are)."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.events: dict[str, deque[float]] = {}
        self.swept_at = float("-inf")

    def allow(self, key: str, now: float) -> bool:
        if now - self.swept_at >= self.seconds:
            self.swept_at = now
            for stale in [k for k in self.events if not self._recent(k, now)]:
                del self.events[stale]
        recent = self._recent(key, now)
        if len(recent) >= self.limit:
            return False
        recent.append(now)
        self.events[key] = recent
        return True

    def _recent(self, key: str, now: float) -> deque[float]:
        recent = self.events.get(key, deque())
        while recent and recent[0] <= now - self.seconds:
            recent.popleft()
        return recent


class Window(Protocol):
    """A per-address rate limit, counted on this instance (:class:`LocalWindow`) or by every
    instance sharing one Redis (:class:`~.shared_limits.RedisWindow`)."""

    async def allow(self, address: str) -> bool:
        """Count one event of ``address``; ``False`` (not counted) past the limit."""


class LocalWindow:
    """A :class:`RateWindow` on the event loop's clock."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.window = RateWindow(limit, seconds)

    async def allow(self, address: str) -> bool:
        return self.window.allow(address, asyncio.get_running_loop().time())


class Counter(Protocol):
    """Open connections per address: one more than the limit is refused."""

    async def enter(self, address: str) -> bool:
        """Count one more open connection of ``address``; ``False`` (not counted) past the limit."""

    async def leave(self, address: str) -> None:
        """One connection counted by :meth:`enter` closed."""


class LocalCounter:
    """An :class:`AddressCounter` of this instance's connections."""

    def __init__(self, limit: int) -> None:
        self.counter = AddressCounter(limit)

    async def enter(self, address: str) -> bool:
        return self.counter.enter(address)

    async def leave(self, address: str) -> None:
        self.counter.leave(address)


class AddressCounter:
    """Open connections per client address, refusing one more than ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        if self.open.get(address, 0) >= self.limit:
            return False
        self.open[address] = self.open.get(address, 0) + 1
        return True

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        if not self.open[address]:
            del self.open[address]

"""Idempotent requests: a client sends one key per submit, and a repeat of that key (a double
click, a retry after a lost answer) gets the first request's answer instead of doing it twice.

The keys of the latest ``keep`` requests are kept in this process (bounded memory).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any


class Once:
    def __init__(self, keep: int = 1024) -> None:
        self.keep = keep
        self.answers: dict[str, asyncio.Future[Any]] = {}

    async def run(self, key: str | None, work: Callable[[], Awaitable[Any]]) -> Any:
        """``work()``'s answer; with a ``key`` seen before, the answer of that first run (awaited
        if it is still running). A run that failed is forgotten, so a retry does the work again."""
        if key is None:
            return await work()
        if key in self.answers:
            return await asyncio.shield(self.answers[key])
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.answers[key] = answer
        while len(self.answers) > self.keep:
            del self.answers[next(iter(self.answers))]
        try:
            result = await work()
        except BaseException as error:
            self.answers.pop(key, None)
            answer.set_exception(error)
            answer.exception()  # retrieved: no warning when no repeat was waiting
            raise
        answer.set_result(result)
        return result

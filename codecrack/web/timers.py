"""Clocks and takeovers: the clock of the current step, which sends its action when it rings, and
the timer that hands an absent human's seat to the takeover AI. Only the driving instance rings."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from ..core.clock import Clock, clock_for
from .refusals import STORE_RETRY, Refusal
from .table_parts import TablePart

log = logging.getLogger("codecrack.web")


@dataclass
class RunningClock:
    """A clock that is ticking: when it rings, and the task that will send its action."""

    clock: Clock
    deadline: float
    task: asyncio.Task | None  # None on an instance that shows the clock but does not drive the table

    def public(self, now: float) -> dict[str, Any]:
        return {
            "seat": self.clock.seat,
            "kind": self.clock.kind,
            "countdown": self.clock.countdown,
            "remaining": max(0.0, round(self.deadline - now, 2)),
        }


class ClocksAndTakeovers(TablePart):
    """The timers part of :class:`~codecrack.web.table.LiveTable`."""

    def restart_clock(self, since: float | None = None) -> None:
        """Start the clock of the current step, if any, from its full length; or, with ``since``
        (the wall time it started on another instance), with what is left of it. Only the driving
        instance rings it."""
        self.cancel("clock")
        self.clock = None
        clock = None if self.row.turn_hours else clock_for(self.game, self.config)  # a turn's deadline replaces it
        if clock is None:
            return
        seconds = clock.seconds if since is None else max(0.0, clock.seconds - (time.time() - since))
        deadline = asyncio.get_running_loop().time() + seconds
        task = self.start("clock", self._ring(clock, self.step, seconds)) if self.driving else None
        self.clock = RunningClock(clock, deadline, task)

    async def _ring(self, clock: Clock, step: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.tasks.pop("clock", None)
        refused = await self.submit(clock.seat, clock.action, expect_step=step)
        if refused is None or refused.kind is Refusal.STALE:
            return
        if refused.kind is Refusal.NOT_STORED:  # the database did not answer: ring again soon
            self.start("clock", self._ring(clock, step, STORE_RETRY))
        else:
            log.warning("clock action refused on %s: %s", self.code, refused)

    def watch_absence(self, seat: int) -> None:
        """After the disconnect timeout, an absent human's seat is played by the takeover AI."""
        if (
            self.driving
            and self.row.takeover
            and not self.row.turn_hours  # a turn-based table's players come and go: its deadline decides
            and not self.over
            and not self.connected(seat)
            and self.claimed(seat)
        ):
            self.start(("absent", seat), self._take_over(seat))

    async def _take_over(self, seat: int) -> None:
        await asyncio.sleep(self.config.disconnect_timeout)
        await self.events.check_presence([self.whole])
        if not self.connected(seat):
            self.taken_over.add(seat)
            self.announce()
            self.wake()

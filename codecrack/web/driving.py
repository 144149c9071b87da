"""Driving a table: whether this instance runs its bots, clock and takeovers, and waking the
driver of each bot the game awaits (``events.drive``)."""

from __future__ import annotations

from .table_parts import TablePart


class Driving(TablePart):
    """The driving part of :class:`~codecrack.web.table.LiveTable`."""

    def wake(self) -> None:
        """Make sure every bot the game is waiting for has a driver task."""
        if self.over or not self.driving:
            return
        for seat in self.game_awaited:
            if self.bot_tier(seat) and not self.running(("bot", seat)):
                self.start(("bot", seat), self.events.drive(self.whole, seat))

    def resume(self, since: float | None = None) -> None:
        """Carry on after loading: takeover timers for absent players, the clock (from its full
        length, or from ``since``: see :meth:`restart_clock`) and the bots."""
        for seat in range(self.row.players):
            self.watch_absence(seat)
        self.restart_clock(since)
        self.resume_turn()
        self.wake()

    def lead(self, since: float) -> None:
        """Drive the table from now on (this instance took its lease): resume the clock that
        started at ``since``, the stored time of the last action."""
        self.driving = True
        self.resume(since)

    def stop_driving(self) -> None:
        """Another instance drives the table now: stop the bots, the clock's ring and the takeovers
        (the clock is still shown)."""
        self.driving = False
        self.taken_over.clear()
        for key in [key for key in self.tasks if key != "info"]:
            self.cancel(key)
        if self.clock:
            self.clock.task = None

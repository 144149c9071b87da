"""Turn-based tables: each move may take hours (``turn_hours``, 1 to 72, times the server's
``turn_hour`` seconds); when a move's time runs out (``on_lapse``) the takeover AI plays the seat
from then on, until its player comes back, or the seat loses: the table ends with a forfeit
result, everyone else sharing the win (:func:`codecrack.core.forfeit.forfeit_result`), in any game
and with any number of players. The deadline of the current step lives in the database (``tables.
turn_deadline``), so a restart keeps it, and the hub loads the tables whose deadline passed
(:meth:`codecrack.web.hub.Hub.ring_due`). Only the driving instance sets or rings a deadline."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..core.errors import OptionError
from ..core.forfeit import forfeit_result
from ..i18n import N_
from ..tutorials import fallback_tier
from .refusals import STORE_RETRY
from .store import now
from .table_parts import TablePart

if TYPE_CHECKING:
    from ..core.game import Game
    from .store import TableRow

log = logging.getLogger("codecrack.web")

MIN_TURN_HOURS, MAX_TURN_HOURS = 1, 72  # an hour to three days per move
TURN_PLAYERS = (2, 4)  # for games with 2 to 4 people
LAPSES = ("ai", "lose")  # a lapse: the takeover AI plays the seat, or the seat loses
FORFEIT = "time"  # the forfeit's kind in a result (a seat whose time ran out)


def racing(game: Game) -> bool:
    """Whether the game's nature has real-time steps (a game that declares none has none)."""
    try:
        nature = game.nature(game.players, **game.options.model_dump())
    except OptionError:
        return False
    return "real_time" in nature.dynamics


@dataclass(frozen=True)
class TurnPlan:
    """A new table's turn-based settings, as its creator asked."""

    hours: int
    on_lapse: str = "ai"

    def apply(self, row: TableRow, game: Game) -> None:
        """Make ``row`` turn-based; :class:`OptionError` if its game or seats cannot be."""
        low, high = TURN_PLAYERS
        if not low <= row.players <= high:
            raise OptionError(N_("a turn-based table needs {low} to {high} players"), low=low, high=high)
        if racing(game):
            raise OptionError(N_("a real-time game cannot be turn-based"))
        if not MIN_TURN_HOURS <= self.hours <= MAX_TURN_HOURS:
            raise OptionError(N_("a move may take {low} to {high} hours"), low=MIN_TURN_HOURS, high=MAX_TURN_HOURS)
        if self.on_lapse not in LAPSES:
            raise OptionError(N_("on_lapse: must be one of {lapses}"), lapses=", ".join(LAPSES))
        row.turn_hours, row.on_lapse = self.hours, self.on_lapse
        row.takeover = row.takeover or fallback_tier(row.game)


def aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back: they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=now().tzinfo)


def turn_public(row: TableRow) -> dict[str, Any] | None:
    """What everyone may know of a turn-based table's deadline (whose move it is is public)."""
    if not row.turn_hours:
        return None
    return {
        "hours": row.turn_hours,
        "on_lapse": row.on_lapse,
        "seats": row.turn_seats or [],
        "deadline": aware(row.turn_deadline).isoformat() if row.turn_deadline else None,
    }


class TurnDeadlines(TablePart):
    """The turn-deadline part of :class:`~codecrack.web.table.LiveTable`."""

    @property
    def over(self) -> bool:
        """Whether the table is over: its game is, or a seat lost on time (a forfeit)."""
        return self.game_over or self.row.finished

    @property
    def result(self) -> dict[str, Any] | None:
        """The game's result, or the forfeit's."""
        return self.game_result if self.game_over else self.row.result if self.row.finished else None

    def waiting_on(self) -> list[int]:
        """The human seats the game awaits now that no AI plays."""
        return sorted(seat for seat in self.game_awaited if not self.bot_tier(seat))

    def resume_turn(self) -> None:
        """After a load: the seats whose time ran out stay the takeover AI's (unless their player is
        back), and the stored deadline runs on."""
        if self.row.turn_hours and self.driving:
            self.taken_over.update(seat for seat in self.row.turn_lapsed or [] if not self.connected(seat))
        self.restart_turn(stored=True)

    def restart_turn(self, stored: bool = False) -> None:
        """Give the seats awaited now the table's time for a move, stored with the table (with the
        seats the takeover AI plays after a lapse); with ``stored``, keep the stored deadline if it
        is this step's for the same seats (a load)."""
        if not self.row.turn_hours or not self.driving:
            return
        self.cancel("turn")
        seats = [] if self.over else self.waiting_on()
        row = self.row
        if stored and row.turn_deadline and row.turn_step == self.step and row.turn_seats == seats:
            deadline: datetime | None = aware(row.turn_deadline)
        elif seats:
            deadline = now() + timedelta(seconds=self.row.turn_hours * self.config.turn_hour)
        else:
            deadline = None
        lapsed = sorted(self.taken_over)
        if (row.turn_step, row.turn_deadline, row.turn_seats, row.turn_lapsed or []) != (
            self.step,
            deadline,
            seats,
            lapsed,
        ):
            row.turn_step, row.turn_deadline, row.turn_seats, row.turn_lapsed = self.step, deadline, seats, lapsed
            write = self.journal.set_turn(self.code, self.step, deadline, seats, lapsed)
            self.start(("turn-store", self.step), write)
        if deadline is not None:
            self.start("turn", self._lapse(self.step, deadline))

    async def _lapse(self, step: int, deadline: datetime) -> None:
        await asyncio.sleep(max(0.0, (deadline - now()).total_seconds()))
        self.tasks.pop("turn", None)
        if self.step != step or self.over:
            return
        lapsed = [seat for seat in self.waiting_on() if seat in (self.row.turn_seats or [])]
        log.info("turn time ran out on %s for seats %s", self.code, lapsed)
        if self.row.on_lapse == "lose":
            await self._forfeit(step, lapsed)
            return
        self.taken_over.update(lapsed)
        self.announce()
        self.wake()

    async def _forfeit(self, step: int, seats: list[int]) -> None:
        """End the table: ``seats`` lose on time. Stored first, then shown, like a step; a store
        that fails is tried again soon."""
        async with self.lock:
            if self.step != step or self.over or not seats:
                return
            result = forfeit_result(self.row.players, seats, FORFEIT)
            try:
                await self.journal.forfeit(self.code, result)
            except Exception:
                log.exception("could not store the forfeit on %s", self.code)
                self.start("turn", self._lapse(step, now() + timedelta(seconds=STORE_RETRY)))
                return
            row = self.row
            row.finished, row.result, row.turn_deadline, row.turn_seats = True, result, None, []
            self.events.ended(self.whole)
        self.announce()

"""The action pipeline: every action, from a browser, a bot or a clock, is checked with
``game.apply`` on the live game's twin, appended to the journal, and only then applied to the live
game and shown. Its recovery paths: a step another instance stored first (read, then the action
checked again), and a write that failed (whatever did land is read and shown)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson

from ..core.detached import detached
from ..core.errors import IllegalAction
from ..core.game import GAME_OVER, Game
from . import metrics
from .connections import Ack
from .ports import StepTaken
from .refusals import BUSY, NOT_STORED, STALE, Refusal, Refused
from .table_parts import TablePart

log = logging.getLogger("codecrack.web")
WRITE_ATTEMPTS = 8  # steps taken by other instances, one after another, before an action gives up


class ActionPipeline(TablePart):
    """The actions part of :class:`~codecrack.web.table.LiveTable`."""

    async def submit(
        self, seat: int, action: Any, expect_step: int | None = None, ack: Ack | None = None
    ) -> Refused | None:
        """Apply, store, broadcast. Returns ``None`` on success, else why it was refused.

        The action is applied to the twin (:meth:`twin`); the live game, the step and the
        broadcasts change only once the action (with the result, if it ends the game) is committed.
        When another instance stored this step first, the step is read and the action checked
        again against the new state (a bot's or a clock's action, decided on the old state, is stale).
        A submission runs to its end even when its caller is cancelled (a connection closed while
        its action is being written): once queued, the write may commit, and the game must follow.
        ``ack``: the sender's reference, echoed in its own copy of the state this action makes."""
        received = time.perf_counter()
        refused = await asyncio.shield(self._submit(seat, action, expect_step, ack, received))
        if refused is not None:
            metrics.action(refused.kind.value, received)
        return refused

    async def _submit(
        self, seat: int, action: Any, expect_step: int | None, ack: Ack | None, received: float
    ) -> Refused | None:
        async with self.lock:
            await self.awake()  # a resting table plays its record again (resting.py)
            if self.row.finished:  # over, by the game or a forfeit (turns.py)
                return Refused(Refusal.ILLEGAL, IllegalAction(GAME_OVER))
            for attempt in range(WRITE_ATTEMPTS):
                if expect_step is not None and expect_step != self.step:
                    return STALE
                played, self.ahead = self.twin(), None
                try:
                    played.apply(seat, action)
                except IllegalAction as error:
                    self.ahead = played  # a refused action leaves a game exactly as before (docs/engine.md)
                    return Refused(Refusal.MOVED_ON if attempt else Refusal.ILLEGAL, error)
                try:
                    refused = await self.commit(seat, action, played)
                except StepTaken:
                    continue
                break
            else:
                return BUSY
            if refused:
                return refused
            committed = time.perf_counter()
            self.adopt(played, seat, action, ack)
            metrics.action("accepted", received, committed, time.perf_counter())
            self.events.committed(self.whole, seat, action)
        self.wake()
        return None

    async def commit(self, seat: int, action: Any, played: Game) -> Refused | None:
        """Append ``action`` as the next step; ``None`` once committed (a write that failed but
        landed after all, e.g. its COMMIT's answer lost, counts), :class:`StepTaken` raised when
        another instance stored that step first (it is now read and shown here), else ``NOT_STORED``."""
        try:
            await self.journal.append(self.code, self.step, seat, action, played.result)
        except StepTaken:
            if await self.read_missed():
                raise
            log.exception("could not store an action on %s", self.code)
            return NOT_STORED
        except Exception:
            log.exception("could not store an action on %s", self.code)
            return None if await self.landed(seat, action) else NOT_STORED
        return None

    async def landed(self, seat: int, action: Any) -> bool:
        """After a failed write of ``seat``'s ``action`` as the next step: whether it was stored after
        all (the caller then adopts it as committed); if not, whatever was stored is shown."""
        moves = await self.stored_past_ours()
        if moves and moves[0] == [seat, orjson.loads(orjson.dumps(action))]:
            return True  # the steps after it, if any (other instances'), are read at the next message
        self.apply_committed(moves)
        return False

    def twin(self) -> Game:
        """A game equal to the live one, for trying an action on. Kept from action to action (the
        live game catches up by applying the same action), so that an action costs two ``apply``
        calls rather than a copy of the whole game (the first time, a copy)."""
        return self.ahead if self.ahead is not None else detached(self.game)

    def adopt(self, played: Game, seat: int, action: Any, ack: Ack | None = None) -> None:
        """Move the live game on by ``seat``'s committed ``action``, which ``played`` (the twin)
        already took: the live game applies it too (the same action on the same state gives the
        same game: every chance comes from the seed) and ``played`` stays its twin. The live game
        stays the same object, so its views share their frozen parts from step to step and the
        deltas find them by identity (docs/web-api.md, "State deltas"). Threads only ever get views
        and records, never a game, so changing it here on the event loop is safe."""
        live = self.game
        try:
            live.apply(seat, action)
        except Exception:
            log.exception("the live game of %s could not follow its twin; the twin replaces it", self.code)
            self.advance(played, self.step + 1, ack)
            return
        self.advance(live, self.step + 1, ack)
        self.ahead = played

    def advance(self, game: Game, step: int, ack: Ack | None = None) -> None:
        """Make ``game`` (stored with ``step`` actions) the live game and show it to everyone (the
        sender's copy with ``ack``'s reference). The twin is dropped: only :meth:`adopt` keeps one in step."""
        self.game, self.step, self.ahead = game, step, None
        self.row.finished, self.row.result = game.over, game.result
        if game.over:
            self.events.ended(self.whole)
        self.restart_clock()
        self.restart_turn()
        self.broadcast_state(ack)
        if game.over:
            self.announce()

    async def read_missed(self) -> int:
        """Apply and show, step by step, the actions stored past ours (by another instance); the
        caller holds the lock. Returns how many.
        If the journal cannot be read, the live game stays as it was: it holds only committed actions."""
        moves = await self.stored_past_ours()
        self.apply_committed(moves)
        return len(moves)

    async def stored_past_ours(self) -> list[list[Any]]:
        """The ``[seat, action]`` moves stored past the live game's step (none if the journal cannot be read)."""
        try:
            return await self.journal.since(self.code, self.step)
        except Exception:
            log.exception("could not read the stored actions of table %s", self.code)
            return []

    def apply_committed(self, moves: list[list[Any]]) -> None:
        """Apply and show committed ``[seat, action]`` moves, the next step first."""
        for seat, action in moves:
            played, self.ahead = self.twin(), None
            played.apply(seat, action)
            self.adopt(played, seat, action)

    async def catch_up(self, step: int | None = None, move: list[Any] | None = None) -> None:
        """Show what other instances committed: ``move`` when it is the one action after ours
        (from the fan-out message that says it made ``step`` actions), else every stored action
        past ours. Each step is applied and broadcast as if it had been played here."""
        async with self.lock:
            if step is not None and step <= self.step:
                return
            if move is not None and step == self.step + 1:
                self.apply_committed([move])
            else:
                await self.read_missed()
        self.wake()

    async def seat_view(self, seat: int) -> tuple[int, dict[str, Any]]:
        """The step and ``view(seat)`` together, for work done outside the lock (hints)."""
        async with self.lock:
            return self.step, self.game.view(seat)

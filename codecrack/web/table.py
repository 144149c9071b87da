"""One live table: the game, who sits where, the open connections, the bots and the clock.

Every action, from a browser, a bot or a clock, goes through :meth:`LiveTable.submit`, which
checks it with ``game.apply``, stores it, and only then sends each connection its own view.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy.exc import IntegrityError

from ..core.detached import detached
from ..core.errors import IllegalAction
from ..core.game import Game
from ..i18n import N_, _, explain
from . import metrics
from .actions import player_view
from .clocks import Clock, clock_for
from .connections import REPLACED, REPLACED_REASON, Ack, Connection, encode
from .deltas import SentViews
from .hints import hints_available
from .store import TableRow

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("codecrack.web")
STALE = "stale"  # the game moved on while a bot or a clock was deciding
NOT_STORED = N_("the server could not store this action; please try again")
TAKEN = "taken"  # another instance stored this step first
MOVED_ON = N_("another move came first: {reason}")
BUSY = N_("the table is busy; please try again")
REFUSAL_KINDS = {STALE: "stale", NOT_STORED: "not_stored", BUSY: "busy"}  # metrics' labels; else "illegal"
WRITE_ATTEMPTS = 8  # steps taken by other instances, one after another, before an action gives up
STORE_RETRY = 1.0  # seconds before a bot or a clock tries again after a failed write


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


@dataclass
class LiveTable:
    """A table being played or watched; ``hub`` owns it, the store and the bots."""

    row: TableRow
    game: Game
    hub: Hub
    tokens: dict[str, tuple[int, str]]
    step: int = 0  # accepted actions so far
    ahead: Game | None = None  # the live game's twin that actions are tried on (see twin())
    connections: set[Connection] = field(default_factory=set)
    taken_over: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clock: RunningClock | None = None
    tasks: dict[Any, asyncio.Task] = field(default_factory=dict)
    announced_at: float = float("-inf")  # when the table's info was last sent to everyone
    loaded_at: float = field(default_factory=time.monotonic)
    joined: bool = False  # someone connected since it was loaded (else it expires: hub.expire_unjoined)
    driving: bool = True  # this instance runs the bots, clock and takeovers (with several: it holds the lease)
    elsewhere: set[int] = field(default_factory=set)  # seats connected on other instances (cluster.py)
    sent: SentViews = field(default_factory=SentViews)  # each audience's last view: the base of its next delta

    def audience_view(self, seat: int | None) -> dict[str, Any]:
        return player_view(self.game.view(seat))

    @property
    def code(self) -> str:
        return self.row.code

    # -- who is who ---------------------------------------------------------------------
    def seat_for(self, token: str | None) -> int | None:
        found = self.tokens.get(token or "")
        return found[0] if found else None

    def claimed(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.tokens.values())

    def bot_tier(self, seat: int) -> str | None:
        """The agent playing ``seat`` now: its own AI, or the takeover AI of an absent human."""
        plan = self.row.seats[seat]
        if plan["kind"] == "ai":
            return plan["agent"]
        return self.row.takeover if seat in self.taken_over else None

    def connected(self, seat: int) -> bool:
        """Whether the seat's player is connected, here or on another instance."""
        return seat in self.elsewhere or self.connected_here(seat)

    def connected_here(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def info(self) -> dict[str, Any]:
        """The public description of the table (no game state)."""
        names = {seat: name for seat, name in self.tokens.values()}
        seats = [
            {
                "kind": plan["kind"],
                "agent": plan.get("agent"),
                "name": names.get(seat) or plan.get("name") or f"Seat {seat + 1}",
                "claimed": plan["kind"] == "ai" or seat in names,
                "connected": self.connected(seat),
                "bot": self.bot_tier(seat),
            }
            for seat, plan in enumerate(self.row.seats)
        ]
        return {
            "code": self.code,
            "game": self.row.game,
            "players": self.row.players,
            "options": self.game.options.model_dump(mode="json"),
            "seats": seats,
            "takeover": self.row.takeover,
            "step": self.step,
            "over": self.game.over,
            "result": self.game.result,
            "rematch": self.row.rematch,
            "hints": hints_available(self.game),
        }

    # -- messages: only ever queued, never awaited (see connections.py) -----------------
    def clock_info(self) -> dict[str, Any] | None:
        return self.clock.public(asyncio.get_running_loop().time()) if self.clock else None

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """The seat's whole view (on connect and resync)."""
        return {
            "type": "state",
            "step": self.step,
            "view": self.sent.current(seat, self.step, self.audience_view),
            "clock": self.clock_info(),
        }

    def update_message(self, seat: int | None) -> dict[str, Any]:
        """What changed in the seat's view since the one it was sent last (the whole view if none)."""
        found = self.sent.changes(seat, self.step, self.audience_view)
        if found is None:
            return self.state_message(seat)
        base, changes = found
        return {"type": "delta", "base": base, "step": self.step, "changes": changes, "clock": self.clock_info()}

    def broadcast_state(self, ack: Ack | None = None) -> None:
        """Send the table's new state to its connections on this server: each gets its audience's
        delta (a seat's, or the spectators'), made and encoded once per audience. The one way a
        new step reaches the sockets. ``ack``: the sender of the step's action gets its reference
        added to its own copy; every other connection gets the same text as without it."""
        audiences = {connection.seat for connection in self.connections}
        self.sent.keep_only(audiences)
        texts = {seat: encode(self.update_message(seat)) for seat in audiences}
        for connection in list(self.connections):
            text = texts[connection.seat]
            connection.push(ack.text_for(connection, text) if ack else text)

    def broadcast(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for connection in list(self.connections):
            connection.push(text)

    def announce(self) -> None:
        """Send everyone the table's info soon, at most once per ``table_info_interval``: a
        crowd connecting at once costs one message per connection, not one per pair."""
        if not self.running("info"):
            self.start("info", self._announce_later())

    async def _announce_later(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, self.announced_at + self.hub.config.table_info_interval - loop.time()))
        self.announced_at = loop.time()
        self.broadcast({"type": "table", "table": self.info()})

    # -- connections --------------------------------------------------------------------
    def connect(self, connection: Connection) -> None:
        """Greet a new connection with the table and its view. The newest connection of a seat
        wins: an older one is told why and closed."""
        seat = connection.seat
        if seat is not None:
            for older in [c for c in self.connections if c.seat == seat]:
                self.connections.discard(older)
                older.push({"type": "error", "message": REPLACED_REASON})
                older.end(REPLACED, REPLACED_REASON)
            self.returned(seat)
        self.connections.add(connection)
        self.joined = True
        connection.push({"type": "hello", "seat": seat, "table": self.info()})
        connection.push(self.state_message(seat))
        self.announce()
        self.wake()
        if seat is not None and self.hub.cluster:
            self.hub.cluster.presence_changed(self)

    def disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.seat is not None:
            self.watch_absence(connection.seat)
            if self.hub.cluster:
                self.hub.cluster.presence_changed(self)
        self.announce()

    def returned(self, seat: int) -> None:
        """The seat's human is back: stop any takeover, even one mid-thought."""
        self.cancel(("absent", seat))
        if seat in self.taken_over:
            self.taken_over.discard(seat)
            self.cancel(("bot", seat))

    def seen_elsewhere(self, seats: set[int]) -> None:
        """The seats connected on other instances now: a returning player ends a takeover, a
        leaving one starts the absence timer (on the driving instance)."""
        if seats == self.elsewhere:
            return
        self.elsewhere = seats
        for seat in range(self.row.players):
            if seat in seats:
                self.returned(seat)
            elif not self.running(("absent", seat)) and seat not in self.taken_over:
                self.watch_absence(seat)
        self.announce()

    async def seat_view(self, seat: int) -> tuple[int, dict[str, Any]]:
        """The step and ``view(seat)`` together, for work done outside the lock (hints)."""
        async with self.lock:
            return self.step, self.game.view(seat)

    def resume(self, since: float | None = None) -> None:
        """Carry on after loading: takeover timers for absent players, the clock (from its full
        length, or from ``since``: see :meth:`restart_clock`) and the bots."""
        for seat in range(self.row.players):
            self.watch_absence(seat)
        self.restart_clock(since)
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

    def watch_absence(self, seat: int) -> None:
        """After the disconnect timeout, an absent human's seat is played by the takeover AI."""
        if (
            self.driving
            and self.row.takeover
            and not self.game.over
            and not self.connected(seat)
            and self.claimed(seat)
        ):
            self.start(("absent", seat), self._take_over(seat))

    async def _take_over(self, seat: int) -> None:
        await asyncio.sleep(self.hub.config.disconnect_timeout)
        if self.hub.cluster:
            await self.hub.cluster.refresh_presence([self])
        if not self.connected(seat):
            self.taken_over.add(seat)
            self.announce()
            self.wake()

    # -- actions ------------------------------------------------------------------------
    async def submit(
        self, seat: int, action: Any, expect_step: int | None = None, ack: Ack | None = None
    ) -> str | None:
        """Apply, store, broadcast. Returns ``None`` on success, else the reason it was refused.

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
            metrics.action(REFUSAL_KINDS.get(refused, "illegal"), received)
        return refused

    async def _submit(
        self, seat: int, action: Any, expect_step: int | None, ack: Ack | None, received: float
    ) -> str | None:
        async with self.lock:
            for attempt in range(WRITE_ATTEMPTS):
                if expect_step is not None and expect_step != self.step:
                    return STALE
                played, self.ahead = self.twin(), None
                try:
                    played.apply(seat, action)
                except IllegalAction as error:
                    self.ahead = played  # a refused action leaves a game exactly as before (docs/engine.md)
                    return _(MOVED_ON).format(reason=explain(error)) if attempt else explain(error)
                refused = await self.commit(seat, action, played)
                if refused != TAKEN:
                    break
            if refused:
                return BUSY if refused == TAKEN else refused
            committed = time.perf_counter()
            self.adopt(played, seat, action, ack)
            metrics.action("accepted", received, committed, time.perf_counter())
            if self.hub.cluster:
                self.hub.cluster.committed(self, seat, action)
        self.wake()
        return None

    async def commit(self, seat: int, action: Any, played: Game) -> str | None:
        """Store ``action`` as the next step; ``None`` once committed (a write that failed but
        landed after all, e.g. its COMMIT's answer lost, counts), :data:`TAKEN` when another
        instance stored that step first (it is now read and shown here), else :data:`NOT_STORED`."""
        try:
            await self.hub.persist(self.code, self.step, seat, action, played.result)
        except IntegrityError:  # the unique (table, step): the first writer of a step wins
            if await self.read_missed():
                return TAKEN
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
        deltas find them by identity (docs/web.md, "State deltas"). Threads only ever get views
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
            self.hub.bots.forget(self.code)
        self.restart_clock()
        self.broadcast_state(ack)
        if game.over:
            self.announce()

    async def read_missed(self) -> int:
        """Apply and show, step by step, the actions stored past ours (by another instance); the
        caller holds the lock. Returns how many.
        If the store cannot be read, the live game stays as it was: it holds only committed actions."""
        moves = await self.stored_past_ours()
        self.apply_committed(moves)
        return len(moves)

    async def stored_past_ours(self) -> list[list[Any]]:
        """The ``[seat, action]`` moves stored past the live game's step (none if the store cannot be read)."""
        try:
            return await self.hub.stored_moves(self.code, since=self.step)
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

    def wake(self) -> None:
        """Make sure every bot the game is waiting for has a driver task."""
        if self.game.over or not self.driving:
            return
        for seat in self.game.awaited:
            if self.bot_tier(seat) and not self.running(("bot", seat)):
                self.start(("bot", seat), self.hub.bots.drive(self, seat))

    # -- the clock ----------------------------------------------------------------------
    def restart_clock(self, since: float | None = None) -> None:
        """Start the clock of the current step, if any, from its full length; or, with ``since``
        (the wall time it started on another instance), with what is left of it. Only the driving
        instance rings it."""
        self.cancel("clock")
        self.clock = None
        clock = clock_for(self.game, self.hub.config)
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
        if refused == NOT_STORED:  # the database did not answer: ring again soon
            self.start("clock", self._ring(clock, step, STORE_RETRY))
        elif refused and refused != STALE:
            log.warning("clock action refused on %s: %s", self.code, refused)

    # -- background tasks ---------------------------------------------------------------
    def start(self, key: Any, coroutine) -> asyncio.Task:
        self.cancel(key)
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks[key] = task
        task.add_done_callback(lambda done: self.tasks.pop(key, None) if self.tasks.get(key) is done else None)
        return task

    def running(self, key: Any) -> bool:
        return key in self.tasks and not self.tasks[key].done()

    def cancel(self, key: Any) -> None:
        task = self.tasks.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def close(self) -> None:
        """Stop every task (the hub dropped the table, or stops). A submission under way still
        commits and the game follows it (see :meth:`submit`), but it wakes no bot, clock or
        takeover: the table drives nothing more (a connection that finds it dropped loads a new
        copy: ``Hub.kept``)."""
        self.stop_driving()
        self.cancel("info")

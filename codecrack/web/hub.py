"""The composition root of one server, and its registry of live tables.

The :class:`Hub` builds every collaborator (store, writer, journal, bots, fan-out, table events)
and hands each table what it needs. Its lifecycle vocabulary for a table:

- :meth:`Hub.find`: a table to read or act on (loaded from the store if need be; a finished one
  is not kept loaded);
- :meth:`Hub.hold`: a table kept loaded, even finished, for a connection (joining.py);
- :meth:`Hub.release`: a connection left: a finished table nobody watches is unloaded;
- :meth:`Hub.unload`: forget a loaded table (its record stays stored).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from ..agents import agent_names
from ..core.errors import OptionError, SeatNumber
from ..core.game import Game
from ..core.registry import game_class, new_game, replay
from ..i18n import N_
from ..tutorials import TUTORIAL_AGENT
from . import messages
from .bots import Bots
from .cache import LiveTables
from .chat import TableChat
from .closing import close_live
from .config import WebConfig
from .fanout import Fanout, LocalFanout
from .instances import hold_instance
from .migrate import upgrade
from .notify import Notifier
from .notify.email import EmailChannel
from .ports import SqlJournal, TableEvents
from .store import (
    BlockedName,
    Store,
    TableRow,
    add_invited_token,
    add_move,
    add_moves,
    add_rematch,
    add_table,
    delete_unjoined,
    make_engine,
    now,
    renew_invite,
)
from .table import LiveTable
from .turns import TurnPlan
from .work import FairPool, check_work_cost
from .writer import Writer

log = logging.getLogger("codecrack.web")
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_ATTEMPTS = 8  # codes drawn for one new table at most (31**5 codes: a clash is already rare)
T = TypeVar("T")
FINISHED_KEPT = 64  # finished games kept after a load, so that the next load does not play them again


def new_code(length: int = 5) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_seed() -> int:
    """A web table's seed: secret, and too large to be found by trying seeds against a dealt hand."""
    return secrets.randbelow(2**63)


def checked_name(name: str | None, limit: int, where: str) -> str:
    """``name`` without surrounding blanks; :class:`OptionError` when it is longer than ``limit``
    or holds a control character (NUL, a line break: no database stores every one of them)."""
    name = (name or "").strip()
    if len(name) > limit:
        raise OptionError(N_("{where}: a name has at most {count} characters"), where=where, count=limit)
    if any(unicodedata.category(character) == "Cc" for character in name):
        raise OptionError(N_("{where}: a name cannot hold control characters"), where=where)
    return name


def check_seats(
    game: str, players: int, seats: list[dict[str, Any]], takeover: str | None, name_limit: int, scripted: bool = False
) -> None:
    """Raise :class:`OptionError` unless ``seats`` is a valid seat plan for ``game``. Only a
    tutorial (``scripted``) may seat its scripted opponent."""
    tiers = agent_names(game) + ([TUTORIAL_AGENT] if scripted else [])
    if len(seats) != players:
        raise OptionError(
            N_("give one seat per player: {players} seats, not {count}"), players=players, count=len(seats)
        )
    for seat, plan in enumerate(seats):
        checked_name(plan.get("name"), name_limit, f"seats.{seat}.name")
        if plan.get("kind") not in ("human", "ai"):
            raise OptionError(N_("seats.{seat}.kind: must be 'human' or 'ai'"), seat=seat)
        if plan["kind"] == "ai" and plan.get("agent") not in tiers:
            raise OptionError(
                N_("seats.{seat}.agent: unknown AI {agent!r}; valid: {agents}"),
                seat=seat,
                agent=plan.get("agent"),
                agents=", ".join(tiers),
            )
    if takeover is not None and takeover not in tiers:
        raise OptionError(N_("unknown takeover AI {agent!r}; valid: {agents}"), agent=takeover, agents=", ".join(tiers))


def is_tutorial(row: TableRow) -> bool:
    return any(plan.get("agent") == TUTORIAL_AGENT for plan in row.seats)


class NotInvited(Exception):
    """An open seat of a friends' table asked for without its link's (current) invitation."""


def blocked_refusal(name: str) -> OptionError:
    """The refusal of a seat's name that the operator blocked (``codecrack admin block``)."""
    return OptionError(N_("the name {name!r} is not allowed here; choose another"), name=name)


@contextmanager
def blocked_refused() -> Iterator[None]:
    """A write's :class:`~codecrack.web.store.BlockedName` raised as its refusal (:func:`blocked_refusal`)."""
    try:
        yield
    except BlockedName as blocked:
        raise blocked_refusal(blocked.name) from None


@dataclass
class Loading:
    """The loads of one table under way, and how often it was dropped since the first began."""

    loads: int = 0
    drops: int = 0


class Hub:
    """Builds the server's collaborators and keeps its live tables (:class:`LiveTables`, capped).

    What a feature may use: ``config``; ``store`` (reads) and ``writer`` (writes, batched);
    ``journal`` (the tables' steps); ``events`` (add listeners: ``events.on_committed``,
    ``on_presence_changed``, ``on_ended``); ``fanout`` (the other instances, if any); ``bots``;
    ``hint_pool``; ``live`` (the loaded tables); ``chat`` (the tables' chat)."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.engine = make_engine(config.db_url)
        self.store = Store(self.engine)
        self.writer = Writer(self.engine, together={add_move: add_moves})
        self.journal = SqlJournal(self.writer, self.store)
        self.bots = Bots(config)
        self.hint_pool = FairPool(1, "codecrack-hint")
        self.live = LiveTables(config.max_live_tables)
        self.loading: dict[str, Loading] = {}  # the tables being read from the store (see _load())
        self.finished: OrderedDict[str, Game] = OrderedDict()  # the last finished games loaded
        self.chores: list[asyncio.Task] = []
        self.instance_lock: Any = None  # held while serving: see instances.py
        self.fanout = self.joined_fanout()
        self.chat = TableChat(config, self.engine, self.writer, self.fanout)
        self.events = TableEvents(drive=self.bots.drive, check_presence=self.fanout.refresh_presence)
        self.events.on_committed.append(self.fanout.committed)
        self.events.on_presence_changed.append(self.fanout.presence_changed)
        self.events.on_ended.append(lambda table: self.bots.forget(table.code))
        self.events.on_ended.append(self.chat.ended)
        self.events.on_ended.append(self.fanout.changed)  # a forfeit is no step: the others re-read the table
        self.notifier = Notifier(self.store)  # channels plug in here (e-mail; Web Push)
        self.notifier.listen(self.events)
        self.notifier.plug(EmailChannel(config, self.store))

    def joined_fanout(self) -> Fanout:
        """The Redis :class:`~codecrack.web.cluster.Cluster` when Redis is configured (imported
        only then: Redis is an optional extra), else the single instance's :class:`LocalFanout`."""
        if not self.config.redis_url:
            return LocalFanout()
        from .cluster import Cluster

        return Cluster(
            self.config.redis_url,
            self.config.lease_seconds,
            self.config.instance_name,
            tables=self.live,
            reread=self.reread,
            take_over=self.take_over,
            unload=self.unload,
            hear_chat=lambda table, line, off: self.chat.deliver(table, line, off),
            adopt=self.adopt,
        )

    def table(self, row: TableRow, game: Game, tokens: dict[str, tuple[int, str]], step: int = 0) -> LiveTable:
        """A live table of ``row`` wired to this hub's ports (not registered yet)."""
        return LiveTable(
            row=row,
            game=game,
            tokens=tokens,
            journal=self.journal,
            events=self.events,
            config=self.config,
            step=step,
            driving=self.fanout.drives_alone,
        )

    # -- life cycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Refuse to run beside the servers already on the database when the state would split
        (:class:`~codecrack.web.instances.StartRefused`); migrate the database; then, in the
        background, restore the recently active unfinished tables and expire the tables nobody
        joins. Every other table loads on first access."""
        self.instance_lock = await asyncio.to_thread(hold_instance, self.config.db_url, self.config.redis_url)
        await asyncio.to_thread(upgrade, self.engine)
        await self.fanout.start()
        loop = asyncio.get_running_loop()
        self.chores = [
            loop.create_task(self.restore()),
            loop.create_task(self.sweep()),
            loop.create_task(self.ring_due()),
        ]

    async def restore(self) -> None:
        """Rebuild the unfinished tables with an action in the last ``restore_window`` seconds
        (the latest first, at most ``max_live_tables``): their bots, clocks and takeovers resume."""
        since = now() - timedelta(seconds=self.config.restore_window)
        for row in await asyncio.to_thread(self.store.unfinished, since, self.config.max_live_tables):
            try:
                await self._load(row.code)
            except Exception:
                log.exception("could not restore table %s", row.code)

    async def stop(self) -> None:
        for chore in self.chores:
            chore.cancel()
        await self.notifier.stop()
        await self.fanout.stop()
        for table in self.live.values():
            table.close()
        self.bots.close()
        self.hint_pool.shutdown()
        self.writer.close()
        self.engine.dispose()
        if self.instance_lock is not None:
            self.instance_lock.close()

    # -- tables: find, hold, release, unload -----------------------------------------------
    async def find(self, code: str) -> LiveTable | None:
        """A table to read or act on: the live one, brought up to what other instances stored,
        else loaded from the store (``None``: no such table). A finished table loaded here is not
        kept loaded."""
        code = code.upper()
        table = self.live.get(code)
        if table is None:
            return await self._load(code)
        await self.fanout.sync(table)
        return table

    async def hold(self, code: str) -> LiveTable | None:
        """The table kept loaded, even finished, for a connection (not brought up to date: the
        joining connection does so once it said hello). Asked again for a table held before, it
        gives the live copy, else loads it again: a copy loaded, played on and unloaded meanwhile
        may have stored steps the first one lacks."""
        code = code.upper()
        return self.live.get(code) or await self._load(code, keep=True)

    def release(self, table: LiveTable) -> None:
        """A connection left: a finished table nobody watches is unloaded (loaded again on demand)."""
        if table.over and not table.connections:
            self.unload(table)

    def unload(self, table: LiveTable) -> None:
        """Forget a loaded table (its record stays stored): its bots, clocks and agents stop."""
        if self.live.get(table.code) is table:
            self.live.pop(table.code)
        if table.code in self.loading:
            self.loading[table.code].drops += 1
        table.close()
        self.bots.forget(table.code)
        self.fanout.unfollow(table)

    async def _load(self, code: str, keep: bool = False) -> LiveTable | None:
        """Rebuild a stored table from its record, off the event loop (``None``: no such table). An
        unfinished table (or any with ``keep``) joins the live tables; an unfinished one resumes
        its bots and clocks. A copy loaded meanwhile is returned instead; if one was loaded,
        played on and unloaded while this read the store, what was read may lack its last steps:
        it is read again."""
        loading = self.loading.setdefault(code, Loading())
        loading.loads += 1
        try:
            while True:
                drops = loading.drops
                row = await asyncio.to_thread(self.store.table, code)
                if row is None or row.closed:
                    return None
                moves = await self.journal.since(code)
                game = self.finished.get(code) if row.finished else None
                if game is None or game.record_length != len(moves):
                    game = await asyncio.to_thread(replay, row.record(moves))
                tokens = await asyncio.to_thread(self.store.tokens, code)
                if code in self.live:
                    return self.live[code]
                if loading.drops == drops:
                    break
        finally:
            loading.loads -= 1
            if not loading.loads:
                del self.loading[code]
        table = self.table(row, game, tokens, step=len(moves))
        if table.over:  # a finished game never changes: the next load need not play it again
            self.finished[code] = game
            self.finished.move_to_end(code)
            while len(self.finished) > FINISHED_KEPT:
                self.finished.popitem(last=False)
        if keep or not table.over:
            self._register(table)
            table.resume()
        return table

    def _register(self, table: LiveTable) -> None:
        for idle in self.live.add(table):
            self.unload(idle)
        self.fanout.follow(table)

    # -- expiry -----------------------------------------------------------------------
    async def sweep(self) -> None:
        """Every so often, expire the tables nobody joined within ``unjoined_table_ttl``."""
        while True:
            await asyncio.sleep(min(60.0, self.config.unjoined_table_ttl))
            try:
                await self.expire_unjoined()
            except Exception:
                log.exception("could not expire unjoined tables")

    async def ring_due(self) -> None:
        """From the start and every ``turn_check_interval``, load the turn-based tables whose move's
        time ran out (a restart, or a table unloaded meanwhile): loading rings their deadline."""
        while True:
            try:
                for code in await asyncio.to_thread(self.store.due_turns, now(), self.config.max_live_tables):
                    if code not in self.live:
                        await self.find(code)
            except Exception:
                log.exception("could not load the tables whose turn ran out")
            await asyncio.sleep(self.config.turn_check_interval)

    async def expire_unjoined(self) -> None:
        """Unload the live tables that nobody connected to since they were loaded, and delete the
        stored tables where nobody ever sat down or played (a table with an action stays)."""
        ttl = self.config.unjoined_table_ttl
        moment = time.monotonic()
        for table in self.live.values():
            if not table.joined and moment - table.loaded_at >= ttl:
                self.unload(table)
        await self.writer.write(delete_unjoined, now() - timedelta(seconds=ttl), list(self.live))

    async def create(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        takeover: str | None = None,
        seed: int | None = None,
        scripted: bool = False,
        sit: int | None = None,
        name: str | None = None,
        player: Any = None,
        for_friends: bool = False,
        origin: str | None = None,
        turns: TurnPlan | None = None,
    ) -> LiveTable:
        """A new table; raises :class:`OptionError` for a bad game, option or seat plan. The seed
        is the server's own unless one is given (only when the server allows it, or a tutorial's
        script, ``scripted``, sets it). With ``sit`` its creator (``player``, as in :meth:`claim`),
        called ``name``, takes that seat in the same transaction (the token is the table's only one).
        A table ``for_friends`` gets an invitation (``row.invite``): its open seats go only to its holders.
        ``origin``: the address of the client making it, whose turn its AI work takes (:mod:`.work`).
        With ``turns``, the table is turn-based (:mod:`.turns`)."""
        row, instance = await self.prepare(game, players, options, seats, takeover, seed, scripted)
        row.invite = secrets.token_urlsafe(16) if for_friends else None
        if turns is not None:
            turns.apply(row, instance)
        tokens = {}
        if sit is not None:  # the creator's name is checked as it is stored (add_table)
            tokens[secrets.token_urlsafe(24)] = (sit, self.seat_name(row, sit, name, player))
        owner = player and player.id
        with blocked_refused():
            await self.with_free_code(row, lambda: self.writer.write(add_table, row, tokens, owner))
        table = self._open(row, instance, tokens=tokens, origin=origin)
        table.anonymous = owner is None  # until a player's session claims a seat (here, or there: reread)
        return table

    async def open_seated(
        self, row: TableRow, game: Game, store: Callable[[], Awaitable[dict[str, tuple[int, str]] | None]]
    ) -> LiveTable | None:
        """Open the new table ``row`` (from :meth:`prepare`) once ``await store()``, a transaction
        that inserts it with its seats taken, gave their tokens (with a new code when another table
        has it); ``None`` when ``store()`` stored nothing."""
        tokens = await self.with_free_code(row, store)
        return None if tokens is None else self._open(row, game, tokens)

    def seat_name(self, row: TableRow, seat: int, name: str | None, player: Any = None) -> str:
        """The checked name of a player taking human ``seat`` of ``row``'s table, else the
        player's own (:class:`OptionError` if there is no such seat or the name is refused)."""
        if not 0 <= seat < row.players:
            raise OptionError(N_("no seat {seat}: seats are 0 to {last}"), seat=seat, last=row.players - 1)
        if row.seats[seat]["kind"] != "human":
            raise OptionError(N_("seat {seat} is not open"), seat=SeatNumber(seat))
        return (
            checked_name(name, self.config.max_name_length, "name") or (player and player.name) or f"Player {seat + 1}"
        )

    async def prepare(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        takeover: str | None,
        seed: int | None = None,
        scripted: bool = False,
    ) -> tuple[TableRow, Game]:
        """The row and the game of a new table, not stored yet."""
        game_class(game)
        check_seats(game, players, seats, takeover, self.config.max_name_length, scripted)
        await self.refuse_blocked([plan.get("name") or "" for plan in seats])
        instance = await asyncio.to_thread(
            new_game, game, players=players, seed=new_seed() if seed is None else seed, **options
        )
        check_work_cost(instance, self.config)
        row = TableRow(
            code=self.free_code(),
            game=game,
            players=players,
            seed=instance.seed,
            options=instance.record()["options"],
            takeover=takeover,
            seats=[
                {"kind": s["kind"], "agent": s.get("agent") if s["kind"] == "ai" else None, "name": s.get("name") or ""}
                for s in seats
            ],
        )
        return row, instance

    async def refuse_blocked(self, names: list[str]) -> None:
        """Raise :class:`OptionError` if the operator blocked one of ``names`` (``codecrack admin block``);
        no name to check (seats left unnamed) asks nothing."""
        if not any(names):
            return
        blocked = await asyncio.to_thread(self.store.blocked, names)
        if blocked:
            raise blocked_refusal(blocked[0])

    def _open(
        self, row: TableRow, game: Game, tokens: dict[str, tuple[int, str]], origin: str | None = None
    ) -> LiveTable:
        """Start playing a stored new table (made by the client at ``origin``): its clock and bots run from now."""
        table = self.table(row, game, tokens)
        table.origin = origin
        self._register(table)
        self.chat.opened(table)
        table.restart_clock()
        table.restart_turn()
        table.wake()
        return table

    def free_code(self) -> str:
        """A code no table loaded here has; the database's primary key decides (:meth:`with_free_code`)."""
        while True:
            code = new_code()
            if code not in self.live:
                return code

    async def with_free_code(self, row: TableRow, store: Callable[[], Awaitable[T]]) -> T:
        """``await store()``, a transaction that inserts ``row``; when another table (perhaps made
        by another instance a moment ago) has its code, with a new code."""
        for _ in range(CODE_ATTEMPTS):
            try:
                return await store()
            except IntegrityError:
                if await asyncio.to_thread(self.store.table, row.code) is None:
                    raise  # the code was free: something else failed
                row.code = self.free_code()
        raise OptionError(N_("could not find a free table code; please try again"))

    async def claim(self, table: LiveTable, seat: int, name: str, player: Any = None, invite: str | None = None) -> str:
        """Give an open human seat to a player (a :class:`~codecrack.web.players.identity.Player`,
        who is linked to the seat, or ``None``: only the token knows it) holding the table's
        ``invite`` if it has one (else :class:`NotInvited`); returns the seat token."""
        name = self.seat_name(table.row, seat, name, player)  # checked as it is stored (add_invited_token)
        async with table.lock:  # two players sitting down at once: only the first gets the seat
            if table.claimed(seat):
                raise OptionError(N_("seat {seat} is not open"), seat=SeatNumber(seat))
            token = secrets.token_urlsafe(24)
            try:
                with blocked_refused():
                    stored = await self.writer.write(
                        add_invited_token, table.code, seat, token, name, player and player.id, invite
                    )
            except IntegrityError:  # the unique (table, seat): claimed through another instance
                table.anonymous = False  # perhaps by a player
                table.tokens = await asyncio.to_thread(self.store.tokens, table.code)
                table.announce()
                raise OptionError(N_("seat {seat} is not open"), seat=SeatNumber(seat)) from None
            if not stored:  # the stored invitation decides (renewed a moment ago on another instance, say)
                raise NotInvited
            table.tokens[token] = (seat, name)
            table.anonymous = table.anonymous and player is None
            table.announce()
        self.fanout.changed(table)
        self.notifier.ready(table, seat)
        return token

    async def renew_invite(self, table: LiveTable) -> str:
        """A new invitation for a friends' table and its rematches (:class:`OptionError` if its seats
        are open to anyone): the old link stops working on every instance; seated players keep their
        seats, and their connections get the new one (:meth:`invite_renewed`)."""
        table = self.live.get(table.code) or table
        if table.row.invite is None:
            raise OptionError(N_("this table's seats are open to anyone: it has no invitation to renew"))
        async with table.lock:
            invite = secrets.token_urlsafe(16)
            renewed = await self.writer.write(renew_invite, table.code, invite)
        for code in renewed:
            if (live := self.live.get(code) or await self.find(code)) is not None:
                self.invite_renewed(live, invite)
                self.fanout.changed(live)  # the other instances' seated get it too
        return invite

    def invite_renewed(self, table: LiveTable, invite: str | None) -> None:
        """The table's invitation is ``invite`` now: its seated players' panels show the new link."""
        if invite is not None and invite != table.row.invite:
            table.row.invite = invite
            table.tell_seated(messages.invite(invite))

    async def rematch(self, table: LiveTable) -> LiveTable:
        """The same game, options and seats with a fresh seed; seated players keep their tokens.
        The new table, its tokens and the link to it are stored in one transaction."""
        if not table.over:
            raise OptionError(N_("the game is not over yet"))
        if is_tutorial(table.row):
            raise OptionError(N_("a tutorial has no rematch: start a game from the lobby"))
        table = self.live.get(table.code) or table  # the copy its viewers are connected to
        async with table.lock:  # two players asking at once still get one rematch
            if table.row.rematch:
                return await self._linked(table.row.rematch)
            options = dict(table.row.options)
            options.pop("first", None)
            row, game = await self.prepare(
                table.row.game, table.row.players, options, table.row.seats, table.row.takeover
            )
            row.invite = table.row.invite  # the friends' link leads on to the rematch's seats
            tokens = await asyncio.to_thread(self.store.tokens, table.code)  # claims made on any instance
            linked = await self.with_free_code(row, lambda: self.writer.write(add_rematch, table.code, row, tokens))
            table.row.rematch = linked
            fresh = self._open(row, game, tokens, table.origin) if linked == row.code else await self._linked(linked)
            table.broadcast(messages.rematch(fresh.code))
            table.announce()
        self.fanout.changed(table)
        return fresh

    async def _linked(self, code: str) -> LiveTable:
        """A rematch stored as linked (tables are never deleted while linked to)."""
        table = await self.find(code)
        if table is None:
            raise LookupError(f"the rematch {code} is not stored")
        return table

    # -- what other instances did (the fan-out calls these) ---------------------------------
    async def reread(self, table: LiveTable) -> None:
        """Another instance (or the operator) changed the table's seats, linked its rematch or closed it: read
        them again."""
        row = await asyncio.to_thread(self.store.table, table.code)
        if row and row.closed:
            close_live(self, table, row.closed)
            return
        table.anonymous = False  # its seats may have been claimed there by players
        table.tokens = await asyncio.to_thread(self.store.tokens, table.code)
        if row:
            self.invite_renewed(table, row.invite)  # renewed there
        if row and row.finished and not table.over:  # a seat lost on time there (turns.py)
            table.row.finished, table.row.result = True, row.result
        if row and row.rematch and not table.row.rematch:
            table.row.rematch = row.rematch
            table.broadcast(messages.rematch(row.rematch))
        table.announce()

    async def adopt(self, code: str) -> bool:
        """Load a table whose driver's lease lapsed (its instance died), so that this instance
        drives it; false if it needs no driver (no such table, closed or finished)."""
        table = await self.find(code)
        return table is not None and not table.over

    async def take_over(self, table: LiveTable) -> None:
        """This instance took the table's lease: bring it up to date and drive it, its clock
        resumed from the stored time of the last action."""
        row = await asyncio.to_thread(self.store.table, table.code)
        await table.catch_up()
        if row is not None:
            stored = row.active_at or row.created_at  # a row's active_at defaults to its creation
            active_at = stored if stored.tzinfo else stored.replace(tzinfo=UTC)
            table.lead(since=active_at.timestamp())

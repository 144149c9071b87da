"""All tables of one server: creating, loading, restoring after a restart, and rematches."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
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
from .bots import Bots
from .cache import LiveTables
from .config import WebConfig
from .instances import hold_instance
from .migrate import upgrade
from .store import (
    Store,
    TableRow,
    add_move,
    add_moves,
    add_rematch,
    add_table,
    add_token,
    delete_unjoined,
    make_engine,
    now,
)
from .table import LiveTable
from .work import check_work_cost
from .writer import Writer

log = logging.getLogger("codecrack.web")
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_ATTEMPTS = 8  # codes drawn for one new table at most (31**5 codes: a clash is already rare)
T = TypeVar("T")


def new_code(length: int = 5) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_seed() -> int:
    """A web table's seed: secret, and too large to be found by trying seeds against a dealt hand."""
    return secrets.randbelow(2**63)


def checked_name(name: str | None, limit: int, where: str) -> str:
    """``name`` without surrounding blanks; :class:`OptionError` when it is longer than ``limit``."""
    name = (name or "").strip()
    if len(name) > limit:
        raise OptionError(N_("{where}: a name has at most {count} characters"), where=where, count=limit)
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


@dataclass
class Loading:
    """The loads of one table under way, and how often it was dropped since the first began."""

    loads: int = 0
    drops: int = 0


class Hub:
    """Owns the store, the bots and the live tables (:class:`LiveTables`, capped)."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.engine = make_engine(config.db_url)
        self.store = Store(self.engine)
        self.writer = Writer(self.engine, together={add_move: add_moves})
        self.bots = Bots(config)
        self.hint_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="codecrack-hint")
        self.live = LiveTables(config.max_live_tables)
        self.loading: dict[str, Loading] = {}  # the tables being read from the store (see load())
        self.chores: list[asyncio.Task] = []
        self.instance_lock: Any = None  # held while serving: see instances.py
        self.cluster = joined_cluster(self, config)

    # -- life cycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Refuse to run beside the servers already on the database when the state would split
        (:class:`~codecrack.web.instances.StartRefused`); migrate the database; then, in the
        background, restore the recently active unfinished tables and expire the tables nobody
        joins. Every other table loads on first access."""
        self.instance_lock = await asyncio.to_thread(hold_instance, self.config.db_url, self.config.redis_url)
        await asyncio.to_thread(upgrade, self.engine)
        if self.cluster:
            await self.cluster.start()
        loop = asyncio.get_running_loop()
        self.chores = [loop.create_task(self.restore()), loop.create_task(self.sweep())]

    async def restore(self) -> None:
        """Rebuild the unfinished tables with an action in the last ``restore_window`` seconds
        (the latest first, at most ``max_live_tables``): their bots, clocks and takeovers resume."""
        since = now() - timedelta(seconds=self.config.restore_window)
        for row in await asyncio.to_thread(self.store.unfinished, since, self.config.max_live_tables):
            try:
                await self.load(row.code)
            except Exception:
                log.exception("could not restore table %s", row.code)

    async def stop(self) -> None:
        for chore in self.chores:
            chore.cancel()
        if self.cluster:
            await self.cluster.stop()
        for table in self.live.values():
            table.close()
        self.bots.close()
        self.hint_pool.shutdown(wait=False, cancel_futures=True)
        self.writer.close()
        self.engine.dispose()
        if self.instance_lock is not None:
            self.instance_lock.close()

    # -- tables -----------------------------------------------------------------------
    async def load(self, code: str, keep: bool = False) -> LiveTable | None:
        """Rebuild a stored table from its record, off the event loop (``None``: no such table). An
        unfinished table (or any with ``keep``) joins the live tables; an unfinished one resumes
        its bots and clocks. A copy loaded meanwhile is returned instead; if one was loaded,
        played on and dropped while this read the store, what was read may lack its last steps:
        it is read again."""
        loading = self.loading.setdefault(code, Loading())
        loading.loads += 1
        try:
            while True:
                drops = loading.drops
                row = await asyncio.to_thread(self.store.table, code)
                if row is None:
                    return None
                moves = await self.stored_moves(code)
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
        table = LiveTable(row=row, game=game, hub=self, tokens=tokens, step=len(moves), driving=self.cluster is None)
        if keep or not game.over:
            self.keep(table)
            table.resume()
        return table

    def keep(self, table: LiveTable) -> None:
        for idle in self.live.add(table):
            self.drop(idle)
        if self.cluster:
            self.cluster.watch(table)

    async def kept(self, table: LiveTable) -> LiveTable | None:
        """The loaded table of ``table``'s code, for a connection about to join it: the live copy,
        else (``table`` was pushed out while the connection said hello) loaded again, since a copy
        loaded, played on and pushed out meanwhile may have stored steps ``table`` lacks."""
        return self.live.get(table.code) or await self.load(table.code, keep=True)

    def drop(self, table: LiveTable) -> None:
        """Forget a loaded table (its record stays stored): its bots, clocks and agents stop."""
        if self.live.get(table.code) is table:
            self.live.pop(table.code)
        if table.code in self.loading:
            self.loading[table.code].drops += 1
        table.close()
        self.bots.forget(table.code)
        if self.cluster:
            self.cluster.forget(table)

    def unload_if_idle(self, table: LiveTable) -> None:
        """Forget a finished table nobody watches; it is loaded again from the store on demand."""
        if table.game.over and not table.connections:
            self.drop(table)

    async def get(self, code: str, keep: bool = False, up_to_date: bool = True) -> LiveTable | None:
        """A table to read or act on: the live one (brought up to what is stored, unless the caller
        does so later: ``up_to_date=False``), else loaded from the store. A finished table is kept
        loaded only with ``keep`` (for a connection), until its last viewer leaves."""
        code = code.upper()
        table = self.live.get(code)
        if table is not None:
            if up_to_date:
                await self.fresh(table)
            return table
        return await self.load(code, keep)

    # -- expiry -----------------------------------------------------------------------
    async def sweep(self) -> None:
        """Every so often, expire the tables nobody joined within ``unjoined_table_ttl``."""
        while True:
            await asyncio.sleep(min(60.0, self.config.unjoined_table_ttl))
            try:
                await self.expire_unjoined()
            except Exception:
                log.exception("could not expire unjoined tables")

    async def expire_unjoined(self) -> None:
        """Unload the live tables that nobody connected to since they were loaded, and delete the
        stored tables where nobody ever sat down or played (a table with an action stays)."""
        ttl = self.config.unjoined_table_ttl
        moment = time.monotonic()
        for table in self.live.values():
            if not table.joined and moment - table.loaded_at >= ttl:
                self.drop(table)
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
    ) -> LiveTable:
        """A new table; raises :class:`OptionError` for a bad game, option or seat plan. The seed
        is the server's own unless one is given (only when the server allows it, or a tutorial's
        script, ``scripted``, sets it)."""
        row, instance = await self.prepare(game, players, options, seats, takeover, seed, scripted)
        await self.with_free_code(row, lambda: self.writer.write(add_table, row))
        return self.open(row, instance, tokens={})

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

    def open(self, row: TableRow, game: Game, tokens: dict[str, tuple[int, str]]) -> LiveTable:
        """Start playing a stored new table: its clock and bots run from now."""
        table = LiveTable(row=row, game=game, hub=self, tokens=tokens, driving=self.cluster is None)
        self.keep(table)
        table.restart_clock()
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

    async def claim(self, table: LiveTable, seat: int, name: str, token: str | None = None) -> str:
        """Give an open human seat to a player; returns the seat token."""
        if not 0 <= seat < table.row.players:
            raise OptionError(N_("no seat {seat}: seats are 0 to {last}"), seat=seat, last=table.row.players - 1)
        async with table.lock:  # two players sitting down at once: only the first gets the seat
            if table.row.seats[seat]["kind"] != "human" or table.claimed(seat):
                raise OptionError(N_("seat {seat} is not open"), seat=SeatNumber(seat))
            token = token or secrets.token_urlsafe(24)
            name = checked_name(name, self.config.max_name_length, "name") or f"Player {seat + 1}"
            try:
                await self.writer.write(add_token, table.code, seat, token, name)
            except IntegrityError:  # the unique (table, seat): claimed through another instance
                table.tokens = await asyncio.to_thread(self.store.tokens, table.code)
                table.announce()
                raise OptionError(N_("seat {seat} is not open"), seat=SeatNumber(seat)) from None
            table.tokens[token] = (seat, name)
            table.announce()
        if self.cluster:
            self.cluster.changed(table)
        return token

    async def rematch(self, table: LiveTable) -> LiveTable:
        """The same game, options and seats with a fresh seed; seated players keep their tokens.
        The new table, its tokens and the link to it are stored in one transaction."""
        if not table.game.over:
            raise OptionError(N_("the game is not over yet"))
        if is_tutorial(table.row):
            raise OptionError(N_("a tutorial has no rematch: start a game from the lobby"))
        table = self.live.get(table.code) or table  # the copy its viewers are connected to
        async with table.lock:  # two players asking at once still get one rematch
            if table.row.rematch:
                return await self.get(table.row.rematch)
            options = dict(table.row.options)
            options.pop("first", None)
            row, game = await self.prepare(
                table.row.game, table.row.players, options, table.row.seats, table.row.takeover
            )
            tokens = await asyncio.to_thread(self.store.tokens, table.code)  # claims made on any instance
            linked = await self.with_free_code(row, lambda: self.writer.write(add_rematch, table.code, row, tokens))
            table.row.rematch = linked
            fresh = self.open(row, game, tokens) if linked == row.code else await self.get(linked)
            table.broadcast({"type": "rematch", "code": fresh.code})
            table.announce()
        if self.cluster:
            self.cluster.changed(table)
        return fresh

    # -- several instances (cluster.py) ----------------------------------------------------
    async def reread(self, table: LiveTable) -> None:
        """Another instance changed the table's seats or linked its rematch: read both again."""
        row = await asyncio.to_thread(self.store.table, table.code)
        table.tokens = await asyncio.to_thread(self.store.tokens, table.code)
        if row and row.rematch and not table.row.rematch:
            table.row.rematch = row.rematch
            table.broadcast({"type": "rematch", "code": row.rematch})
        table.announce()

    async def fresh(self, table: LiveTable) -> None:
        """With several instances, bring a loaded table up to what is stored before it is used: this
        instance applies the steps of tables nobody here watches only then (cluster.py), and the
        message of a step committed just before its instance died may never have been sent."""
        if self.cluster:
            await table.catch_up()

    async def take_over(self, table: LiveTable) -> None:
        """This instance took the table's lease: bring it up to date and drive it, its clock
        resumed from the stored time of the last action."""
        row = await asyncio.to_thread(self.store.table, table.code)
        await table.catch_up()
        if row is not None:
            active_at = row.active_at if row.active_at.tzinfo else row.active_at.replace(tzinfo=UTC)
            table.lead(since=active_at.timestamp())

    # -- records ----------------------------------------------------------------------
    async def stored_moves(self, code: str, since: int = 0) -> list[list[Any]]:
        return await asyncio.to_thread(self.store.moves, code, since)

    async def persist(self, code: str, step: int, seat: int, action: Any, result: dict[str, Any] | None) -> None:
        """Store an accepted action, with the result when it ends the game, together (the writer
        may commit other tables' writes in the same transaction); returns once committed."""
        await self.writer.write(add_move, code, step, seat, action, result)

    async def replay_frames(self, table: LiveTable, seat: int | None) -> list[dict[str, Any]]:
        """The seat's view after each step of a finished game, for step-by-step replay; the game
        is played again in a thread, off the event loop."""
        return await asyncio.to_thread(views_step_by_step, table.game.record(), seat)


def joined_cluster(hub: Hub, config: WebConfig):
    """The instance's :class:`~codecrack.web.cluster.Cluster` when Redis is configured, else
    ``None`` (imported only then: Redis is an optional extra)."""
    if not config.redis_url:
        return None
    from .cluster import Cluster

    return Cluster(hub, config.redis_url, config.lease_seconds, config.instance_name)


def views_step_by_step(record: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """``view(seat)`` before the record's first action and after each one."""
    game = replay({**record, "actions": []})
    frames = [game.view(seat)]
    for actor, action in record["actions"]:
        game.apply(actor, action)
        frames.append(game.view(seat))
    return frames

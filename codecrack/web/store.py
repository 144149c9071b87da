"""The database: tables, their seats and tokens, and every accepted action, via SQLAlchemy 2.

The schema is created and upgraded only by the Alembic migrations in ``migrations/``
(:func:`codecrack.web.migrate.upgrade`); this module just reads and writes it. :class:`Store`
reads; the write steps (``add_move``, ``add_table``, ...) take the connection of a transaction, so
that the server's writer (:mod:`codecrack.web.writer`) can commit many of them at once
(:meth:`Store.write` runs one on its own).
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    exists,
    insert,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError

from .wal_index import WalIndexGuard

T = TypeVar("T")

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("code", String(12), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("takeover", String(32)),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("result", JSON),
    Column("rematch", String(12)),
    Column("active_at", DateTime(timezone=True)),  # the latest action (or the creation)
    Column("closed", String(200)),  # closed by the operator: the reason its players were told (admin.py)
    Column("invite", String(32)),  # the secret of a friends' table's link (null: its seats are open to anyone)
    # turn-based tables (codecrack/web/turns.py): hours per move, what a lapse does, and the running deadline
    Column("turn_hours", Integer),  # None: not turn-based
    Column("on_lapse", String(8)),  # "ai": the takeover AI plays the seat; "lose": the seat loses
    Column("turn_step", Integer),  # the step whose deadline this is ...
    Column("turn_deadline", DateTime(timezone=True)),  # ... when it runs out ...
    Column("turn_seats", JSON),  # ... and the human seats it is for
    Column("turn_lapsed", JSON),  # the seats the takeover AI plays since their time ran out
    Index("ix_tables_finished_active_at", "finished", "active_at"),
    Index("ix_tables_turn_deadline", "turn_deadline"),
)

blocked_names = Table(
    "blocked_names",
    metadata,
    Column("name", String(40), primary_key=True),  # case-folded: see name_key()
    Column("blocked_at", DateTime(timezone=True), nullable=False),
)

actions = Table(
    "actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_code", String(12), ForeignKey("tables.code"), nullable=False),  # indexed by the unique (table, step)
    Column("step", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    UniqueConstraint("table_code", "step"),
)

seat_tokens = Table(
    "seat_tokens",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("table_code", String(12), ForeignKey("tables.code"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(40), nullable=False),
    Column(
        "player_id", Integer, ForeignKey("players.id", name="fk_seat_tokens_player_id")
    ),  # who took the seat, when a browser session did
    Column("finished_at", DateTime(timezone=True)),  # when its table's game ended (null: not yet)
    Index("uq_seat_tokens_table_code_seat", "table_code", "seat", unique=True),  # a seat is claimed once
    Index("ix_seat_tokens_player_finished", "player_id", "finished_at", "table_code"),  # a player's latest games
)

# -- players (codecrack/web/players): who a browser session is, across tables -------------------
players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("handle", String(64)),  # an account's handle as chosen (NFKC); a guest has none
    Column("handle_key", String(64), unique=True),  # the handle NFKC and case-folded: unique
    Column("password_hash", String(200)),  # argon2id
)

# -- notifications (codecrack/web/notify) --------------------------------------------------------
notify_emails = Table(
    "notify_emails",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id", name="fk_notify_emails_player_id"), primary_key=True),
    Column("address", String(254), nullable=False),
    Column("language", String(16), nullable=False),  # the e-mails' language: the page's when the player opted in
    Column("consented_at", DateTime(timezone=True), nullable=False),  # when the player asked for them
    Column("confirmed_at", DateTime(timezone=True)),  # when they followed the confirmation link (null: not yet)
)

player_sessions = Table(
    "player_sessions",
    metadata,
    Column("id", String(64), primary_key=True),  # the SHA-256 of the cookie's value, never the value itself
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

sign_in_failures = Table(
    "sign_in_failures",
    metadata,
    Column("key", String(80), primary_key=True),  # "account:HANDLE_KEY" or "address:IP"
    Column("failures", Integer, nullable=False),
    Column("since", DateTime(timezone=True), nullable=False),  # the first failure of the window
)

# -- passkeys (codecrack/web/players/passkeys.py): WebAuthn credentials of accounts ------------
passkeys = Table(
    "passkeys",
    metadata,
    Column("id", String(1400), primary_key=True),  # the credential's id, base64url (at most 1023 bytes)
    Column("player_id", Integer, ForeignKey("players.id", name="fk_passkeys_player_id"), nullable=False),
    Column("public_key", LargeBinary, nullable=False),  # COSE
    Column("sign_count", BigInteger, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True)),
    Index("ix_passkeys_player_id", "player_id"),
)

passkey_challenges = Table(  # a ceremony under way: its challenge is used once, before it expires
    "passkey_challenges",
    metadata,
    Column("challenge", String(64), primary_key=True),  # base64url
    Column(
        "player_id", Integer, ForeignKey("players.id", name="fk_passkey_challenges_player_id")
    ),  # adding a passkey: the account's; signing in: none
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_passkey_challenges_expires_at", "expires_at"),
)

# -- ratings (codecrack/web/players/ratings.py): one OpenSkill rating per account and game ------
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id", name="fk_ratings_player_id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("players", Integer, primary_key=True, autoincrement=False),  # its player count; 0: every count
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games played
    Column("wins", Integer, nullable=False),  # of which placed first
    Column("played_at", DateTime(timezone=True), nullable=False),  # the latest rated game
)
# the leaderboards: the listed ratings only (10 rated games or more; rating_routes.py), best first
listed_ratings = ratings.c.games >= literal_column("10")
Index(
    "ix_ratings_listed",
    ratings.c.game,
    ratings.c.players,
    ratings.c.mu.desc(),
    ratings.c.player_id,
    postgresql_where=listed_ratings,
    sqlite_where=listed_ratings,
)

rated_games = Table(  # a table's ratings were updated: its row is the unique key that makes it once
    "rated_games",
    metadata,
    Column("table_code", String(12), ForeignKey("tables.code", name="fk_rated_games_table_code"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False, server_default="0"),  # the table's player count
    Column("rated_at", DateTime(timezone=True), nullable=False),
)

rating_changes = Table(  # each seat of a rated game: its place and its rating before and after
    "rating_changes",
    metadata,
    Column(
        "table_code",
        String(12),
        ForeignKey("rated_games.table_code", name="fk_rating_changes_table_code"),
        primary_key=True,
    ),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id", name="fk_rating_changes_player_id")),  # None: an AI tier
    Column("agent", String(32)),  # the AI tier of a seat without a player
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games after this one
    Index("ix_rating_changes_player_id_games", "player_id", "games"),  # a player's latest changes
)

player_tallies = Table(  # each player's finished games, counted as each one ends (its profile reads these)
    "player_tallies",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id", name="fk_player_tallies_player_id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("tier", String(32), primary_key=True),  # an AI tier among the opponents; "": every game
    Column("played", Integer, nullable=False),
    Column("won", Integer, nullable=False),
)

server_secrets = Table(  # secrets the server draws once and keeps (the daily puzzles', VAPID, e-mail links')
    "server_secrets",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)

puzzle_attempts = Table(  # a player's attempt at a daily puzzle (day set) or a practice one
    "puzzle_attempts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("day", Date),
    Column("player", String(64), nullable=False),
    Column("puzzle", Integer, nullable=False),  # which puzzle: never sent before the attempt is over
    Column("moves", JSON, nullable=False),
    Column("step", Integer, nullable=False),  # moves stored so far: a write expects the step it read
    Column("finished", Boolean, nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("score", Integer, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("game", "day", "player"),  # one scored attempt per player per day
    Index("ix_puzzle_attempts_player", "player", "game", "day"),
)


def attempts_key(player_id: int) -> str:
    """How ``puzzle_attempts`` names a player (never like the random ids of the cookie used before)."""
    return f"player:{player_id}"


daily_pars = Table(  # how many turns the hard tier needs for a day's puzzle, worked out once
    "daily_pars",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("day", Date, primary_key=True),
    Column("turns", Integer, nullable=False),
)


chat_lines = Table(  # what was said at a table (table chat), and its switches off and on
    "chat_lines",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_code", String(12), ForeignKey("tables.code"), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("seat", Integer),  # null: a spectator
    Column("name", String(40), nullable=False),
    Column("kind", String(8), nullable=False),  # phrase, text, off, on
    Column("body", String(500), nullable=False),  # the phrase's key or the text ("" for a switch)
    Index("ix_chat_lines_table_code_id", "table_code", "id"),
)

match_queue = Table(  # quick match: the players waiting for a table (one entry per player), then seated
    "match_queue",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("preset", String(32), nullable=False),  # the game's preset: the table's options ("" for a game with none)
    Column("players", Integer, nullable=False),
    Column("name", String(40), nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),  # the player's latest call: absent ones are not seated
    Column("table_code", String(12), ForeignKey("tables.code")),  # seated: the table, until the player is told
    Column("seat", Integer),
    Column("token", String(64)),
    Index("ix_match_queue_waiting", "game", "preset", "players", "table_code", "joined_at"),
)

push_subscriptions = Table(  # Web Push: a browser's push endpoint and keys, for the player who opted in there
    "push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("endpoint", String(1000), nullable=False, unique=True),
    Column("p256dh", String(100), nullable=False),  # the browser's public key (base64url)
    Column("auth", String(40), nullable=False),  # the browser's authentication secret (base64url)
    Column("language", String(16), nullable=False, server_default="en"),  # the page's, when it subscribed
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_push_subscriptions_player_id", "player_id"),
)


def now() -> datetime:
    return datetime.now(UTC)


def kept_secret(engine: Engine, name: str, draw: Callable[[], str]) -> str:
    """The server secret ``name``: the stored one, else ``draw()`` stored by the first instance
    that needs it (another that drew one meanwhile loses the race and reads the winner's)."""
    query = select(server_secrets.c.value).where(server_secrets.c.name == name)
    with engine.begin() as db:
        value = db.execute(query).scalar()
    if value is None:
        try:
            with engine.begin() as db:
                db.execute(insert(server_secrets).values(name=name, value=draw()))
        except IntegrityError:  # another instance drew it first
            pass
        with engine.begin() as db:
            value = db.execute(query).scalar_one()
    return value


def name_key(name: str) -> str:
    """A name as blocked names are compared: without surrounding blanks, case-folded.

    >>> name_key("  Zoë ")
    'zoë'
    """
    return name.strip().casefold()


IS_BLOCKED = select(blocked_names.c.name).where(blocked_names.c.name == bindparam("key"))


class BlockedName(Exception):
    """A write that would give a seat a name the operator blocked (``codecrack admin block``): nothing
    of it is stored. ``name``: the first such name, as it was given."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def blocked_among(db: Connection, names: Iterable[str]) -> list[str]:
    """Those of ``names`` that the operator blocked (compared as :func:`name_key` has them)."""
    keys = {name_key(name): name for name in names if name}
    # one name at a time: a seat has one, and an IN of a list is compiled again at every call
    return [name for key, name in keys.items() if db.execute(IS_BLOCKED, {"key": key}).first()]


@dataclass
class TableRow:
    """One table as stored: its record header, seat plan and state. ``seats`` holds one
    ``{"kind": "human"|"ai", "agent": tier|None, "name": str}`` per seat."""

    code: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    takeover: str | None = None
    created_at: datetime = field(default_factory=now)
    finished: bool = False
    result: dict[str, Any] | None = None
    rematch: str | None = None
    active_at: datetime | None = None
    closed: str | None = None
    invite: str | None = None
    turn_hours: int | None = None
    on_lapse: str | None = None
    turn_step: int | None = None
    turn_deadline: datetime | None = None
    turn_seats: list[int] | None = None
    turn_lapsed: list[int] | None = None

    def __post_init__(self) -> None:
        self.active_at = self.active_at or self.created_at

    def record(self, moves: list[list[Any]]) -> dict[str, Any]:
        """The game record for :func:`codecrack.replay`."""
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "actions": moves,
        }


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's folder is created first, and every SQLite connection
    is set up for a server (:func:`sqlite_for_a_server`) and its WAL index guarded
    (:class:`~codecrack.web.wal_index.WalIndexGuard`). Its errors do not show the statements'
    values (a seat token, a name: they would reach the logs)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, hide_parameters=True)
    on_disk = Path(parsed.database) if parsed.database and parsed.database != ":memory:" else None
    if on_disk:
        on_disk.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False}, hide_parameters=True)
    if on_disk:
        WalIndexGuard(engine, on_disk)
    event.listen(engine, "connect", sqlite_for_a_server)
    event.listen(engine, "begin", lambda db: db.connection.driver_connection.execute("BEGIN"))
    return engine


def sqlite_for_a_server(dbapi_connection: Any, _record: Any) -> None:
    """WAL (readers never block the writer, nor it them) and ``synchronous=NORMAL`` (a commit is
    not flushed to disk until the next checkpoint: it survives a crash of the process, not
    necessarily of the machine). SQLAlchemy, not the driver, begins transactions, so that a
    transaction encloses its reads too (the driver's own BEGIN comes only before a write)."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Store:
    """Reads tables, actions and seat tokens; each read is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def write(self, change: Callable[..., T], *args: Any, **values: Any) -> T:
        """``change(db, *args, **values)`` (a write step, below) in a transaction of its own."""
        with self.engine.begin() as db:
            return change(db, *args, **values)

    def read(self, query: Callable[..., T], *args: Any) -> T:
        """``query(db, *args)``, a read step of another module, in a transaction of its own."""
        with self.engine.connect() as db:
            return query(db, *args)

    def table(self, code: str) -> TableRow | None:
        with self.engine.connect() as db:
            found = db.execute(select(tables).where(tables.c.code == code)).mappings().first()
        return TableRow(**found) if found else None

    def seat_names(self, codes: list[str]) -> dict[str, dict[int, str]]:
        """``code -> {seat: name}`` of the claimed seats of each table in ``codes``."""
        query = select(seat_tokens.c.table_code, seat_tokens.c.seat, seat_tokens.c.name).where(
            seat_tokens.c.table_code.in_(codes)
        )
        names: dict[str, dict[int, str]] = {}
        with self.engine.connect() as db:
            for row in db.execute(query):
                names.setdefault(row.table_code, {})[row.seat] = row.name
        return names

    def list_tables(self, finished_since: datetime | None = None, limit: int = 50) -> list[TableRow]:
        """The latest open tables, but those that finished before ``finished_since``."""
        query = select(tables).where(tables.c.closed.is_(None)).order_by(tables.c.created_at.desc()).limit(limit)
        if finished_since is not None:
            query = query.where(or_(tables.c.finished.is_(False), tables.c.active_at >= finished_since))
        with self.engine.connect() as db:
            return [TableRow(**row) for row in db.execute(query).mappings()]

    def unfinished(self, since: datetime, limit: int) -> list[TableRow]:
        """The unfinished tables active since ``since``, at most ``limit``, the latest first."""
        query = (
            select(tables)
            .where(tables.c.finished.is_(False), tables.c.closed.is_(None), tables.c.active_at >= since)
            .order_by(tables.c.active_at.desc())
            .limit(limit)
        )
        with self.engine.connect() as db:
            return [TableRow(**row) for row in db.execute(query).mappings()]

    def due_turns(self, moment: datetime, limit: int) -> list[str]:
        """The unfinished turn-based tables whose move's time ran out by ``moment``, the earliest first."""
        query = (
            select(tables.c.code)
            .where(tables.c.finished.is_(False), tables.c.closed.is_(None), tables.c.turn_deadline <= moment)
            .order_by(tables.c.turn_deadline)
            .limit(limit)
        )
        with self.engine.connect() as db:
            return list(db.execute(query).scalars())

    def moves(self, code: str, since: int = 0) -> list[list[Any]]:
        """The table's accepted actions in order from step ``since``, as ``[seat, action]`` pairs."""
        query = select(actions.c.seat, actions.c.action).where(actions.c.table_code == code, actions.c.step >= since)
        with self.engine.connect() as db:
            return [[seat, action] for seat, action in db.execute(query.order_by(actions.c.step))]

    def blocked(self, names: list[str]) -> list[str]:
        """Those of ``names`` that the operator blocked (:func:`blocked_among`)."""
        if not any(names):
            return []
        with self.engine.connect() as db:
            return blocked_among(db, names)

    def tokens(self, code: str) -> dict[str, tuple[int, str]]:
        """``token -> (seat, name)`` for every claimed seat of the table."""
        query = select(seat_tokens).where(seat_tokens.c.table_code == code)
        with self.engine.connect() as db:
            return {row.token: (row.seat, row.name) for row in db.execute(query)}


# -- write steps: each runs in the caller's transaction (the writer's batch, or Store.write) ----
# built once, their values given at execution: the statements of every new table, seat claim and
# action (their compiled forms are cached)
ADD_TABLE = insert(tables)
ADD_TOKEN = insert(seat_tokens)
# a seat token, inserted only if its name is not blocked (no row inserted: it is; the count of rows
# is kept for an INSERT only when asked: psycopg's cursor is closed before it is read otherwise)
ADD_TOKEN_UNLESS_BLOCKED = (
    insert(seat_tokens)
    .from_select(
        ["token", "table_code", "seat", "name", "player_id"],
        select(
            bindparam("token", type_=String),
            bindparam("table_code", type_=String),
            bindparam("seat", type_=Integer),
            bindparam("name", type_=String),
            bindparam("player_id", type_=Integer),
        ).where(~exists().where(blocked_names.c.name == bindparam("key"))),
    )
    .execution_options(preserve_rowcount=True)
)


def add_table(
    db: Connection, row: TableRow, tokens: dict[str, tuple[int, str]] | None = None, player_id: int | None = None
) -> None:
    """Store a new table and the seats taken with it (``tokens``: token -> (seat, name), linked to
    player ``player_id`` if any; :class:`BlockedName` if one of their names is blocked: the caller's
    transaction, rolled back, stores none of it). Each seat's name is checked by the statement that
    stores it (:data:`ADD_TOKEN_UNLESS_BLOCKED`), not by a read of its own."""
    db.execute(ADD_TABLE, row.__dict__)
    for token, (seat, name) in (tokens or {}).items():
        values = {"token": token, "table_code": row.code, "seat": seat, "name": name, "player_id": player_id}
        if not db.execute(ADD_TOKEN_UNLESS_BLOCKED, {**values, "key": name_key(name)}).rowcount:
            raise BlockedName(name)


def update_table(db: Connection, code: str, **values: Any) -> None:
    db.execute(update(tables).where(tables.c.code == code).values(**values))


def set_turn(
    db: Connection, code: str, step: int, deadline: datetime | None, seats: list[int], lapsed: list[int]
) -> None:
    """A turn-based table's running deadline: ``seats`` must move by ``deadline`` at ``step``; the
    takeover AI plays the ``lapsed`` seats, whose time ran out, until their players come back."""
    update_table(db, code, turn_step=step, turn_deadline=deadline, turn_seats=seats, turn_lapsed=lapsed)


def forfeit_table(db: Connection, code: str, result: dict[str, Any]) -> None:
    """End table ``code`` with a forfeit ``result`` (no action ends it: :mod:`codecrack.web.turns`)."""
    update_table(db, code, finished=True, result=result, turn_deadline=None, turn_seats=[], active_at=now())
    count_ended(db, [code])


def tallies(seats: Iterable[Any]) -> dict[tuple[int, str, str], list[int]]:
    """What the finished games of ``seats`` (rows of a player's seat: ``player_id``, ``seat``, and
    its table's ``game``, ``seats`` and ``result``) add to the tallies: for each player and game,
    ``[played, won]`` of every game (tier "") and against each AI tier met (once a game).

    >>> from types import SimpleNamespace as Row
    >>> plan = [{}, {"agent": "hard"}, {"agent": "hard"}]
    >>> dict(tallies([Row(player_id=7, seat=0, game="chess", seats=plan, result={"winners": [0]})]))
    {(7, 'chess', ''): [1, 1], (7, 'chess', 'hard'): [1, 1]}
    """
    counted: dict[tuple[int, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for row in seats:
        won = int(row.seat in (row.result or {}).get("winners", []))
        met = {plan.get("agent") for seat, plan in enumerate(row.seats) if seat != row.seat} - {None}
        for tier in ["", *met]:
            counted[row.player_id, row.game, tier][0] += 1
            counted[row.player_id, row.game, tier][1] += won
    return counted


def add_tallies(db: Connection, counted: dict[tuple[int, str, str], list[int]]) -> None:
    """Add ``counted`` (:func:`tallies`) to the stored tallies, in one order of keys (of locks, on
    PostgreSQL) whoever writes."""
    if not counted:
        return
    dialect = postgresql if db.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(player_tallies)
    statement = statement.on_conflict_do_update(
        index_elements=["player_id", "game", "tier"],
        set_={
            "played": player_tallies.c.played + statement.excluded.played,
            "won": player_tallies.c.won + statement.excluded.won,
        },
    )
    db.execute(
        statement,
        [
            {"player_id": player_id, "game": game, "tier": tier, "played": played, "won": won}
            for (player_id, game, tier), (played, won) in sorted(counted.items())
        ],
    )


ENDED_AT = select(tables.c.active_at).where(tables.c.code == seat_tokens.c.table_code).scalar_subquery()


# the seats held by players at tables that end (``codes``), built once (a game's end is in the
# writer's batches: building the statement cost more than running it)
HELD_AT = and_(seat_tokens.c.table_code.in_(bindparam("codes", expanding=True)), seat_tokens.c.player_id.is_not(None))
ENDED_SEATS = (
    select(seat_tokens.c.player_id, seat_tokens.c.seat, tables.c.game, tables.c.seats, tables.c.result)
    .join(tables, tables.c.code == seat_tokens.c.table_code)
    .where(HELD_AT)
)
DATE_ENDED_SEATS = update(seat_tokens).where(HELD_AT).values(finished_at=ENDED_AT)


def count_ended(db: Connection, codes: list[str]) -> None:
    """Count the games of tables ``codes``, which end in this transaction, in their players'
    tallies, and date the players' seats with the end (the tables' last activity)."""
    seats = db.execute(ENDED_SEATS, {"codes": codes}).all()
    if seats:  # else nothing to write: tables without players end in no more statements
        db.execute(DATE_ENDED_SEATS, {"codes": codes})
        add_tallies(db, tallies(seats))


ADD_ACTION = insert(actions)
TOUCH_TABLE = update(tables).where(tables.c.code == bindparam("at_code")).values(active_at=bindparam("at_time"))
FINISH_TABLE = TOUCH_TABLE.values(finished=True, result=bindparam("at_result", type_=JSON))


def add_move(
    db: Connection, code: str, step: int, seat: int, action: dict[str, Any], result: dict[str, Any] | None = None
) -> None:
    """Store an accepted action and, when it ends the game (``result`` given), the finished
    flag and the result."""
    add_moves(db, [(code, step, seat, action, result)])


def add_moves(db: Connection, moves: list[tuple[Any, ...]]) -> None:
    """:func:`add_move` for each of ``moves`` (its arguments, ``result`` optional), in at most
    three statements whatever their number: the writer stores a batch's actions so
    (:mod:`codecrack.web.writer`)."""
    at = now()
    moves = [(*move, None)[:5] for move in moves]
    execute_many(
        db,
        ADD_ACTION,
        [{"table_code": code, "step": step, "seat": seat, "action": action} for code, step, seat, action, _ in moves],
    )
    touched = [{"at_code": code, "at_time": at} for code, *_, result in moves if result is None]
    finished = [
        {"at_code": code, "at_time": at, "at_result": result} for code, *_, result in moves if result is not None
    ]
    if touched:
        execute_many(db, TOUCH_TABLE, touched)
    if finished:
        execute_many(db, FINISH_TABLE, finished)
        count_ended(db, [row["at_code"] for row in finished])


def execute_many(db: Connection, statement: Any, rows: list[RowValues]) -> None:
    """``db.execute(statement, rows)``; on SQLite, the statement's SQL (compiled once) goes straight
    to the driver with each value converted by its type as SQLAlchemy converts it: the same SQL and
    stored values, without SQLAlchemy's work per execution (about half of the writer's CPU per
    batch). Errors are wrapped and events fired as through ``execute``."""
    if db.dialect.name != "sqlite":
        db.execute(statement, rows)
        return
    sql, values = _compiled(db.dialect, statement, tuple(rows[0]))
    db.exec_driver_sql(sql, [tuple(value(row) for value in values) for row in rows])


RowValues = dict[str, Any]  # one row to insert, by column key


@lru_cache(maxsize=32)
def _compiled(dialect: Any, statement: Any, keys: tuple[str, ...]) -> tuple[str, list[Callable[[RowValues], Any]]]:
    """The positional SQL of ``statement`` for rows with ``keys``, and for each of its parameters a
    function that takes it from a row (or the statement's own value) through its type's conversion."""
    compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    values: list[Callable[[RowValues], Any]] = []
    for name in compiled.positiontup:
        bind = compiled.binds[name]
        convert = bind.type.dialect_impl(dialect).bind_processor(dialect)
        fixed = bind.effective_value
        take = _key(name) if name in keys else _always(fixed)
        values.append(take if convert is None else _converted(take, convert))
    return compiled.string, values


def _key(name: str) -> Callable[[RowValues], Any]:
    return lambda row: row[name]


def _always(value: Any) -> Callable[[RowValues], Any]:
    return lambda row: value


def _converted(take: Callable[[RowValues], Any], convert: Callable[[Any], Any]) -> Callable[[RowValues], Any]:
    return lambda row: convert(take(row))


def add_token(db: Connection, code: str, seat: int, token: str, name: str, player_id: int | None = None) -> None:
    db.execute(ADD_TOKEN, {"token": token, "table_code": code, "seat": seat, "name": name, "player_id": player_id})


# the claim's one read: the table's invitation (its row locked) and whether the seat's name is blocked
INVITE_AND_BLOCKED = (
    select(tables.c.invite, exists().where(blocked_names.c.name == bindparam("key")).label("blocked"))
    .where(tables.c.code == bindparam("code"))
    .with_for_update(of=tables)
)


def add_invited_token(
    db: Connection, code: str, seat: int, token: str, name: str, player_id: int | None, invite: str | None
) -> bool:
    """:func:`add_token` if ``invite`` is the table's invitation as stored now, or the table has none
    (its seats are open to anyone); ``False``, nothing stored, if not; :class:`BlockedName` if ``name``
    is blocked. The table's row is locked, so a renewal on any instance commits wholly before or after.
    One statement reads both the invitation and the name's block (:data:`INVITE_AND_BLOCKED`)."""
    stored, blocked = db.execute(INVITE_AND_BLOCKED, {"code": code, "key": name_key(name)}).one()
    if blocked:
        raise BlockedName(name)
    if stored is not None and not secrets.compare_digest((invite or "").encode(), stored.encode()):
        return False
    add_token(db, code, seat, token, name, player_id)
    return True


def renew_invite(db: Connection, code: str, invite: str) -> list[str]:
    """Give table ``code`` and every rematch that followed it the invitation ``invite`` (the friends'
    link leads on to the rematches' seats, so an old link must stop there too); returns their codes."""
    renewed: list[str] = []
    following: str | None = code
    while following and following not in renewed:
        db.execute(update(tables).where(tables.c.code == following).values(invite=invite))
        renewed.append(following)
        following = db.execute(select(tables.c.rematch).where(tables.c.code == following)).scalar_one_or_none()
    return renewed


def add_rematch(db: Connection, code: str, fresh: TableRow, tokens: dict[str, tuple[int, str]]) -> str:
    """Store the rematch of table ``code``, its seat tokens and the link to it; returns the code of
    the table's rematch (an earlier one, if there is one)."""
    linked = db.execute(
        update(tables).where(tables.c.code == code, tables.c.rematch.is_(None)).values(rematch=fresh.code)
    ).rowcount
    if not linked:
        return db.execute(select(tables.c.rematch).where(tables.c.code == code)).scalar_one()
    add_table(db, fresh)
    owners = dict(
        db.execute(select(seat_tokens.c.token, seat_tokens.c.player_id).where(seat_tokens.c.table_code == code)).all()
    )
    for token, (seat, name) in tokens.items():
        add_token(db, fresh.code, seat, token, name, owners.get(token))
    return fresh.code


def close_table(db: Connection, code: str, reason: str) -> None:
    db.execute(update(tables).where(tables.c.code == code).values(closed=reason))


def delete_unjoined(db: Connection, created_before: datetime, keep: list[str]) -> int:
    """Delete the tables created before ``created_before`` where no seat was ever claimed, no
    action played and nothing said (except those in ``keep``); returns how many."""
    unjoined = (
        select(tables.c.code)
        .where(
            tables.c.finished.is_(False),
            tables.c.created_at < created_before,
            tables.c.code.not_in(keep),
            ~exists().where(actions.c.table_code == tables.c.code),
            ~exists().where(seat_tokens.c.table_code == tables.c.code),
            ~exists().where(chat_lines.c.table_code == tables.c.code),
        )
        .scalar_subquery()
    )
    return db.execute(delete(tables).where(tables.c.code.in_(unjoined))).rowcount

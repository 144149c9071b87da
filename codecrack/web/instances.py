"""Refuse at start-up the set-ups that would silently split the state (issue 11).

Each server process holds one of these locks for as long as it runs:

- **SQLite**: an exclusive lock on ``<database>.serve-lock`` beside the file. SQLite serves one
  process, so a second process (``codecrack serve`` twice, or ``uvicorn --workers 2``) is refused;
  so is a WAL index (``-shm``) that cannot be used (:mod:`.wal_index`).
- **PostgreSQL**: a session advisory lock on the database. An instance without Redis takes it
  exclusively; an instance with Redis (which tells it of the others' moves) takes it shared. So
  any number of instances with Redis run side by side, and an instance without Redis runs alone.

A refused process stops with :class:`StartRefused`, whose message says what to do instead.
"""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from . import wal_index

# The advisory lock's key: any fixed 64-bit number, the same in every instance ("codecrak").
ADVISORY_KEY = int.from_bytes(b"codecrak", "big")


class StartRefused(RuntimeError):
    """This server process must not run beside the ones already serving the database."""


def hold_instance(db_url: str, redis_url: str | None) -> IO[bytes] | PostgresLock | None:
    """Take this process's lock on the database at ``db_url`` (see the module's docstring), or
    raise :class:`StartRefused`. Returns what holds it (``close()`` releases it), or ``None`` for
    a database that needs no lock (in-memory SQLite, other servers)."""
    backend = make_url(db_url).get_backend_name()
    if backend == "sqlite":
        return hold_sqlite(db_url)
    if backend == "postgresql":
        return hold_postgresql(db_url, shared=redis_url is not None)
    return None


def hold_sqlite(db_url: str) -> IO[bytes] | None:
    """SQLite serves one server process: an exclusive lock beside its file."""
    url = make_url(db_url)
    if url.database in (None, "", ":memory:"):
        return None
    path = Path(url.database)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.with_name(path.name + ".serve-lock").open("a+b")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise StartRefused(
            f"another codecrack server already serves {path}: SQLite serves one server process "
            "(so no --workers either). Stop that one, or run several instances on PostgreSQL "
            "(--db postgresql+psycopg://...) with Redis (--redis redis://...)."
        ) from None
    refusal = wal_index.problem(path)
    if refusal:
        handle.close()
        raise StartRefused(refusal)
    return handle


class PostgresLock:
    """The database's advisory lock, held by a session of its own while the server runs."""

    def __init__(self, connection: Connection, shared: bool) -> None:
        self.connection, self.shared = connection, shared

    def close(self) -> None:
        """Unlock, then end the session. Ending the session alone frees the lock only once its
        server process has exited, which on a busy machine may come after this returned: an
        instance started right then would be refused."""
        unlock = "pg_advisory_unlock_shared" if self.shared else "pg_advisory_unlock"
        try:
            self.connection.execute(text(f"SELECT {unlock}(:key)"), {"key": ADVISORY_KEY})
        except SQLAlchemyError:  # the session is gone (the database restarted): so is its lock
            pass
        finally:
            self.connection.close()


def hold_postgresql(db_url: str, shared: bool) -> PostgresLock:
    """The database's advisory lock, shared (instances with Redis) or exclusive (without), on a
    connection of its own that stays open while the server runs."""
    engine = create_engine(db_url, poolclass=NullPool)
    connection = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    take = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
    if connection.execute(text(f"SELECT {take}(:key)"), {"key": ADVISORY_KEY}).scalar_one():
        return PostgresLock(connection, shared)
    connection.close()
    engine.dispose()
    where = make_url(db_url).render_as_string(hide_password=True)
    if shared:
        raise StartRefused(
            f"a codecrack instance without Redis already serves {where}: it runs alone. "
            "Restart it with --redis redis://... so that several instances can share the database."
        )
    raise StartRefused(
        f"another codecrack instance already serves {where}: several instances need Redis "
        "(start each one with --redis redis://...), which tells each instance of the others' "
        "moves; without it their state would silently split."
    )


def workers_refusal(db_url: str, redis_url: str | None, workers: int) -> str | None:
    """Why ``workers`` server processes cannot serve ``db_url`` (each process is an instance), if
    they cannot; checked before they start, with the same rules as the locks.

    >>> workers_refusal("sqlite:///data/codecrack.db", None, 2)[:50]
    'SQLite serves one server process: several workers '
    >>> workers_refusal("postgresql+psycopg://cc@db/cc", "redis://cache", 2) is None
    True
    """
    if workers < 1:
        return "--workers must be at least 1"
    if workers == 1:
        return None
    if make_url(db_url).get_backend_name() == "sqlite":
        return (
            "SQLite serves one server process: several workers need PostgreSQL (--db postgresql+psycopg://...) "
            "and Redis (--redis redis://...)."
        )
    if redis_url is None:
        return (
            "several workers need Redis (--redis redis://...), which tells each worker of the others' moves; "
            "without it their state would silently split."
        )
    return None

"""``codecrack backup OUT`` and ``codecrack restore IN --db URL``: a consistent copy of a running
server's records, and loading one into an empty database (docs/deploy.md, "Backups").

- **SQLite**: SQLite's online backup API copies the database in one step, from one read
  transaction: a consistent snapshot, taken while the server goes on writing (WAL mode: the
  server's writer is not blocked). ``OUT`` is a SQLite database file.
- **PostgreSQL**: ``pg_dump --format=custom`` (one transaction's snapshot, the server keeps
  writing) and ``pg_restore``, the newest of Debian's ``postgresql`` package (or on the ``PATH``).
  The password, if the URL has one, reaches them through ``PGPASSWORD``, never their command line.
  Each runs within a time limit (``seconds``): a dump waiting on a lock or a database that stopped
  answering is stopped and reported, its partial file removed; a restore runs in one transaction,
  so a stopped one leaves the database empty.

A backup restores into the same kind of database it came from. It holds every seat token: keep it
as private as the database.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import URL, make_url

from ..i18n import _
from .migrate import upgrade
from .store import make_engine

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"


class BackupError(RuntimeError):
    """A backup or a restore that cannot be done, with what to do instead."""


def backup(db_url: str, out: Path, seconds: float = 3600.0) -> None:
    """Copy the database at ``db_url`` into the new file ``out`` (``pg_dump`` within ``seconds``)."""
    if out.exists():
        raise BackupError(f"{out} exists: a backup goes into a new file")
    out.parent.mkdir(parents=True, exist_ok=True)
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        source = sqlite_path(url)
        if not source.exists():
            raise BackupError(f"no database at {source}")
        sqlite_copy(source, out)
    elif url.get_backend_name() == "postgresql":
        try:
            run_pg("pg_dump", url, ["--format=custom", "--no-owner", "--no-privileges", f"--file={out}"], seconds)
        except BackupError:
            out.unlink(missing_ok=True)  # a partial dump is no backup
            raise
    else:
        raise BackupError(f"cannot back up a {url.get_backend_name()} database: only SQLite and PostgreSQL")


def restore(source: Path, db_url: str, seconds: float = 3600.0) -> None:
    """Load the backup ``source`` into the empty database at ``db_url`` (of the backup's kind; a
    ``pg_restore`` within ``seconds``, in one transaction), then bring it to this codecrack's newest
    migration."""
    head = source.read_bytes()[:16] if source.is_file() else b""
    url = make_url(db_url)
    kind = "sqlite" if head.startswith(SQLITE_MAGIC) else "postgresql" if head.startswith(PG_DUMP_MAGIC) else None
    if kind is None:
        raise BackupError(f"{source} is not a codecrack backup (neither a SQLite file nor a pg_dump archive)")
    if url.get_backend_name() != kind:
        raise BackupError(f"{source} is a {kind} backup: restore it into a {kind} database, not {url.drivername}")
    engine = make_engine(db_url)
    try:
        if inspect(engine).get_table_names():
            raise BackupError("the database to restore into is not empty: give a new, empty one")
        if kind == "sqlite":
            sqlite_copy(source, sqlite_path(url))
        else:
            run_pg("pg_restore", url, ["--no-owner", "--no-privileges", "--single-transaction", str(source)], seconds)
        upgrade(engine)
    finally:
        engine.dispose()


def sqlite_copy(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` into ``target`` in one step of the online backup API."""
    with closing(sqlite3.connect(source)) as database, closing(sqlite3.connect(target)) as copy:
        database.backup(copy)


def sqlite_path(url: URL) -> Path:
    if url.database in (None, "", ":memory:"):
        raise BackupError("an in-memory SQLite database has nothing to back up or restore into")
    return Path(url.database)


def pg_tool(name: str) -> str:
    """``pg_dump`` or ``pg_restore``: the newest of Debian's PostgreSQL packages, else the ``PATH``'s."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda path: int(Path(path).parts[-3]))
    tool = found[-1] if found else shutil.which(name)
    if tool is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return tool


def run_pg(name: str, url: URL, arguments: list[str], seconds: float) -> None:
    """Run a PostgreSQL tool on the database at ``url``, its password in the environment; stop it
    (SIGKILL: neither tool starts processes of its own here) once it has run ``seconds``."""
    target = url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    environ = {**os.environ, **({"PGPASSWORD": str(url.password)} if url.password else {})}
    try:
        done = subprocess.run(
            [pg_tool(name), f"--dbname={target}", *arguments],
            env=environ,
            capture_output=True,
            text=True,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        raise BackupError(
            _(
                "{tool} did not finish within {seconds} s and was stopped: is the database answering, "
                "or is a table locked (pg_locks)? Nothing was kept."
            ).format(tool=name, seconds=f"{seconds:g}")
        ) from None
    if done.returncode:
        raise BackupError(f"{name} failed ({done.returncode}): {done.stderr.strip()}")

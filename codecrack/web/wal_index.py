"""SQLite's WAL index: the ``-shm`` file beside the database, which SQLite maps into memory
(issue 24 §5). If something else truncates it while the server runs, the next read of that memory
kills the process with SIGBUS, and nothing says why. So:

- at start-up, a ``-shm`` that cannot be opened for reading and writing refuses the start
  (:func:`problem`, called by :mod:`.instances`);
- while the engine lives, one connection of its own (the keeper) keeps the index open, so that
  SQLite never removes or shrinks it; before a new connection reads it and before each
  transaction the file's size is compared
  with the largest seen, and an index that shrank stops the process at once, with a clear
  message, before SQLite reads it (:class:`WalIndexGuard`). Every committed step is in the
  ``-wal`` file: the next start rebuilds the index from it, so nothing is lost;
- if SQLite reads the damaged memory first anyway, ``faulthandler`` (enabled by ``serve``) names
  the fault and where it happened in the log.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

log = logging.getLogger("codecrack.web")
STOPPED = 70  # the exit status of a server stopped by a damaged index (EX_SOFTWARE)


def index_of(database: Path) -> Path:
    return database.with_name(database.name + "-shm")


def problem(database: Path) -> str | None:
    """Why the WAL index of ``database`` cannot be used, if it cannot (a missing one is made by SQLite)."""
    index = index_of(database)
    if not os.path.lexists(index):
        return None
    try:
        with index.open("r+b"):
            return None
    except OSError as error:
        return (
            f"SQLite's WAL index {index} cannot be opened for reading and writing ({error.strerror}). "
            f"Stop every process that uses {database}, then remove {index} (SQLite rebuilds it from the "
            "-wal file: nothing is lost), or let this user read and write it."
        )


class WalIndexGuard:
    """Stops the process, with a clear message, when the WAL index of ``database`` shrinks under
    ``engine``'s connections (see the module's docstring). Made before the engine's other
    ``connect`` listeners, so that its check comes first."""

    def __init__(self, engine: Engine, database: Path) -> None:
        self.database, self.index = database, index_of(database)
        self.keeper: sqlite3.Connection | None = None
        self.seen: tuple[int, int] = (0, 0)  # the index's inode and the largest size seen
        self.lock = threading.Lock()
        event.listen(engine, "connect", self.check)  # before the connection's set-up reads the index
        event.listen(engine, "begin", self.check)
        event.listen(engine, "engine_disposed", lambda _engine: self.close())

    def check(self, *_: Any) -> None:
        """Before a new connection reads the index, and before each transaction: keep the index
        open, and stop if it shrank."""
        with self.lock:
            try:
                found = os.stat(self.index)
            except FileNotFoundError:  # not in WAL mode yet, or removed (SQLite keeps the file it opened)
                return
            if self.keeper is None:
                self.keeper = sqlite3.connect(self.database, check_same_thread=False)
                self.keeper.execute("SELECT count(*) FROM sqlite_master").fetchall()  # maps the index
            inode, largest = self.seen
            if found.st_ino == inode and found.st_size < largest:
                self.stop(largest, found.st_size)
            self.seen = (found.st_ino, max(found.st_size, largest if found.st_ino == inode else 0))

    def stop(self, largest: int, size: int) -> None:
        log.critical(
            "SQLite's WAL index %s shrank from %d to %d bytes while in use (something else truncated it): "
            "the server stops now, before SQLite reads it and the process dies of SIGBUS. Nothing committed is "
            "lost (it is in %s-wal): start the server again and SQLite rebuilds the index.",
            self.index,
            largest,
            size,
            self.database,
        )
        os._exit(STOPPED)

    def close(self) -> None:
        with self.lock:
            if self.keeper is not None:
                self.keeper.close()
                self.keeper = None

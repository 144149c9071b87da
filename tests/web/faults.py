"""Storage fault injection: make chosen SQL statements (or commits) fail as a busy SQLite does,
or wait until the test lets them run."""

from __future__ import annotations

import sqlite3
import threading

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

LOCKED = "database is locked"
GUARD = 60.0  # seconds a held statement waits for its release at most (a hang guard, no timing claim)


class Hold:
    """A statement held in its thread: ``reached`` is set once it waits, ``release()`` lets it run."""

    def __init__(self, point: str) -> None:
        self.point = point
        self.reached = threading.Event()
        self.released = threading.Event()

    def wait(self) -> None:
        self.reached.set()
        if not self.released.wait(GUARD):
            raise AssertionError(f"{self.point} was held and never released")

    def release(self) -> None:
        self.released.set()


class Faults:
    """``fail("INSERT INTO actions")`` makes the next statement starting with that text raise
    ``database is locked``; ``fail("COMMIT")`` makes the next commit raise it.
    ``hold("SELECT seat_tokens")`` makes the next such statement wait for ``release()``."""

    def __init__(self, engine: Engine) -> None:
        self.planned: list[str] = []
        self.raised: list[str] = []
        self.holds: list[Hold] = []
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def fail(self, *points: str) -> None:
        self.planned.extend(point.upper() for point in points)

    def hold(self, point: str) -> Hold:
        held = Hold(point.upper())
        self.holds.append(held)
        return held

    def _raise_if_planned(self, text: str) -> None:
        for point in self.planned:
            if text.upper().startswith(point):
                self.planned.remove(point)
                self.raised.append(point)
                raise OperationalError(text, None, sqlite3.OperationalError(LOCKED))

    def _wait_if_held(self, text: str) -> None:
        for held in self.holds:
            if text.upper().startswith(held.point):
                self.holds.remove(held)
                held.wait()
                return

    def _statement(self, connection, cursor, statement, parameters, context, executemany) -> None:
        text = " ".join(statement.split())
        self._wait_if_held(text)
        self._raise_if_planned(text)

    def _commit(self, connection) -> None:
        self._raise_if_planned("COMMIT")

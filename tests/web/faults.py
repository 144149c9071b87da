"""Storage fault injection: make chosen SQL statements (or commits) fail as a busy SQLite does."""

from __future__ import annotations

import sqlite3

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

LOCKED = "database is locked"


class Faults:
    """``fail("INSERT INTO actions")`` makes the next statement starting with that text raise
    ``database is locked``; ``fail("COMMIT")`` makes the next commit raise it."""

    def __init__(self, engine: Engine) -> None:
        self.planned: list[str] = []
        self.raised: list[str] = []
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def fail(self, *points: str) -> None:
        self.planned.extend(point.upper() for point in points)

    def _raise_if_planned(self, text: str) -> None:
        for point in self.planned:
            if text.upper().startswith(point):
                self.planned.remove(point)
                self.raised.append(point)
                raise OperationalError(text, None, sqlite3.OperationalError(LOCKED))

    def _statement(self, connection, cursor, statement, parameters, context, executemany) -> None:
        self._raise_if_planned(" ".join(statement.split()))

    def _commit(self, connection) -> None:
        self._raise_if_planned("COMMIT")

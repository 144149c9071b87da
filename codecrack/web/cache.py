"""The tables a server keeps loaded, least recently used first, with a cap.

A table with a connection is always kept, and not counted. Beyond the cap of tables that nobody
is connected to, the least recently used of them are handed back to be closed; their records stay stored, and the next
request loads them again (an unfinished one then resumes its bots and clocks).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .table import LiveTable


class LiveTables:
    """``code -> LiveTable``; :meth:`get` counts as a use, ``in`` and ``[]`` do not."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()

    def __contains__(self, code: str) -> bool:
        return code in self.tables

    def __getitem__(self, code: str) -> LiveTable:
        return self.tables[code]

    def __len__(self) -> int:
        return len(self.tables)

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables)

    def values(self) -> list[LiveTable]:
        return list(self.tables.values())

    def get(self, code: str) -> LiveTable | None:
        table = self.tables.get(code)
        if table is not None:
            self.tables.move_to_end(code)
        return table

    def pop(self, code: str, default: LiveTable | None = None) -> LiveTable | None:
        return self.tables.pop(code, default)

    def add(self, table: LiveTable) -> list[LiveTable]:
        """Keep ``table`` as the most recently used; returns the idle tables it pushed out (the
        least recently used, past ``cap`` idle tables: connected tables do not count)."""
        self.tables[table.code] = table
        self.tables.move_to_end(table.code)
        idle = [t for t in self.tables.values() if not t.connections]
        excess = len(idle) - self.cap
        if excess <= 0:
            return []
        return [self.tables.pop(t.code) for t in [t for t in idle if t is not table][:excess]]

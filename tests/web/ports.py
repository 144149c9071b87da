"""A live table on in-memory ports, for unit tests: no database, no server, no Redis.

table = memory_table(options={"target": 3, "first": 0})
seen = watch(table, seat=0)            # a connection that records what it is sent
assert await table.submit(0, ADD) is None
table.journal.moves[table.code]        # what was stored
"""

from __future__ import annotations

from typing import Any

import orjson

from codecrack import new_game
from codecrack.web.connections import Connection
from codecrack.web.ports import MemoryJournal, TableEvents
from codecrack.web.store import TableRow
from codecrack.web.table import LiveTable

from .conftest import fast_config

HUMAN = {"kind": "human", "agent": None, "name": ""}


class Recorder:
    """A socket that takes every message at once and keeps it, decoded."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send_now(self, data: str) -> bool:
        self.messages.append(orjson.loads(data))
        return True

    async def send_text(self, data: str) -> None:
        self.send_now(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def memory_table(
    game: str = "toy",
    seats: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    journal: MemoryJournal | None = None,
    events: TableEvents | None = None,
    code: str = "MEMRY",
    seed: int = 1,
    tmp_path: str = "/nonexistent",
) -> LiveTable:
    """A new table of ``game`` (seats: two humans, none claimed) on a :class:`MemoryJournal`, with
    ``events`` (by default: no bot is driven, nothing is listened to)."""
    seats = seats or [HUMAN, HUMAN]
    played = new_game(game, players=len(seats), seed=seed, **(options or {}))
    row = TableRow(code=code, game=game, players=len(seats), seed=seed, options=played.record()["options"], seats=seats)
    return LiveTable(
        row=row,
        game=played,
        tokens={},
        journal=journal or MemoryJournal(),
        events=events or TableEvents(),
        config=fast_config(tmp_path),
    )


def watch(table: LiveTable, seat: int | None = None) -> Recorder:
    """Connect a recording connection to ``table`` as ``seat`` (``None``: a spectator)."""
    socket = Recorder()
    table.connect(Connection(seat, socket))
    return socket

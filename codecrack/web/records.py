"""Checking stored records: every table's actions replay, a finished table to its stored result
(``codecrack admin check``; the backup tests)."""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson
from sqlalchemy import select
from sqlalchemy.engine import Engine

from ..core.registry import replay
from .store import Store, tables


@dataclass
class RecordsCheck:
    """What :func:`check_records` found: how many tables, finished or not, and each problem."""

    finished: int = 0
    unfinished: int = 0
    problems: list[str] = field(default_factory=list)


def check_records(engine: Engine) -> RecordsCheck:
    """Replay every stored table from its seed and actions: an unfinished one must not be over,
    a finished one must be over with the result it was stored with (or end in a forfeit)."""
    store, found = Store(engine), RecordsCheck()
    with engine.connect() as db:
        codes = list(db.execute(select(tables.c.code).order_by(tables.c.code)).scalars())
    for code in codes:
        row = store.table(code)
        if row is None:  # deleted meanwhile (a table nobody joined)
            continue
        try:
            game = replay(row.record(store.moves(code)))
        except Exception as error:
            found.problems.append(f"{code}: does not replay: {error}")
            continue
        if row.finished:
            found.finished += 1
            if "forfeit" in (row.result or {}) and not game.over:  # a seat lost on time (turns.py)
                continue
            if not game.over or orjson.loads(orjson.dumps(game.result)) != row.result:
                found.problems.append(f"{code}: replays to {game.result!r}, stored as {row.result!r}")
        else:
            found.unfinished += 1
            if game.over:
                found.problems.append(f"{code}: replays to a finished game, stored as unfinished")
    return found

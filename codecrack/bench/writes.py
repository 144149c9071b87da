"""``codecrack bench writes``: the CPU of the writes around a load test's actions (issue 26), each
measured in the thread that runs it (``time.thread_time``), medians of ``rounds``:

- ``table_opened_us``: a new table with its creator seated, then a claim of its second seat, each
  in its own transaction on one SQLite connection, as the server's writer runs them;
- ``game_end_us``: a game's end (``count_ended``, no seat held by a player, as in the load test)
  in its transaction; ``empty_transaction_us`` for comparison;
- ``action_metrics_us`` and ``batch_metrics_us``: the metrics of an accepted action and of a
  writer batch.

docs/benchmarks.md quotes them ("Before and after issue 26").
"""

from __future__ import annotations

import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

from ..web import metrics
from ..web.migrate import upgrade
from ..web.store import TableRow, add_invited_token, add_table, count_ended, make_engine

SEATS = [{"kind": "human", "agent": None, "name": ""}] * 2


def cpu_us(step: Callable[[], Any], times: int) -> float:
    """Thread CPU microseconds of one ``step()``, over ``times`` of them."""
    started = time.thread_time()
    for _ in range(times):
        step()
    return (time.thread_time() - started) / times * 1e6


def writes_benchmark(tables: int | str = 300, rounds: int | str = 5) -> dict[str, Any]:
    """``-o tables=N -o rounds=R``: N tables opened a round (and 5 N games ended, empty transactions)."""
    tables, rounds = int(tables), int(rounds)
    with tempfile.TemporaryDirectory(prefix="codecrack-writes-") as folder:
        engine = make_engine(f"sqlite:///{folder}/writes.db")
        upgrade(engine)
        db = engine.connect()

        def open_table() -> None:
            code = secrets.token_hex(4)
            row = TableRow(code=code, game="coda", players=2, seed=1, options={}, seats=SEATS)
            with db.begin():
                add_table(db, row, {secrets.token_urlsafe(24): (0, "load0")}, None)
            with db.begin():
                add_invited_token(db, code, 1, secrets.token_urlsafe(24), "load1", None, None)

        def end_game() -> None:
            with db.begin():
                count_ended(db, [secrets.token_hex(4)])

        def empty() -> None:
            with db.begin():
                pass

        moment = time.perf_counter()
        steps: dict[str, tuple[Callable[[], Any], int]] = {
            "table_opened_us": (open_table, tables),
            "game_end_us": (end_game, tables * 5),
            "empty_transaction_us": (empty, tables * 5),
            "action_metrics_us": (lambda: metrics.action("accepted", moment, moment + 0.003, moment + 0.004), 100_000),
            "batch_metrics_us": (lambda: metrics.batch(3, 0), 100_000),
        }
        for step, times in steps.values():
            cpu_us(step, max(1, times // 10))  # warm up: statements compiled, pages cached
        report: dict[str, Any] = {
            name: round(statistics.median(cpu_us(step, times) for _ in range(rounds)), 2)
            for name, (step, times) in steps.items()
        }
        db.close()
        engine.dispose()
    report["load_average"] = os.getloadavg()[0]
    return report


BENCHMARKS = {"writes": writes_benchmark}

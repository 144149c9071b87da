"""A fair share of the AI's work (issue 24 §4): "one client within the default limits (20 tables
of hard bots a minute) used 74% of a core, delayed another table's bot by 4.4 s". The AI threads
serve the clients (the address that made a table) in turn, and each client's tables in turn, so
that many tables of one client wait behind each other, not in front of another client's table.
Checked by the order of service, not by time."""

from __future__ import annotations

import asyncio
import threading

from codecrack.web.bots import Bots
from codecrack.web.ports import TableEvents

from .conftest import fast_config
from .ports import HUMAN, memory_table

AI = {"kind": "ai", "agent": "random", "name": ""}
GREEDY, OTHER = "10.0.0.1", "10.0.0.2"


class Held:
    """An agent that notes the table it decides for, then waits to be let go (bounded)."""

    def __init__(self, code: str, served: list[str], permits: threading.Semaphore) -> None:
        self.code, self.served, self.permits = code, served, permits

    def act(self, view):
        self.served.append(self.code)
        assert self.permits.acquire(timeout=60)
        return view["legal_actions"][0]


async def served_order(tmp_path, plan: list[tuple[str, str | None]], workers: int = 1) -> list[str]:
    """The order in which one bot move of each table of ``plan`` ((code, client address)) is
    decided, with ``workers`` AI threads, every table's bot asking at once in the plan's order."""
    bots = Bots(fast_config(tmp_path), workers=workers)
    served: list[str] = []
    permits = threading.Semaphore(0)
    events = TableEvents(drive=bots.drive)
    try:
        tables = []
        for code, origin in plan:
            table = memory_table(seats=[AI, HUMAN], options={"first": 0}, events=events, code=code, tmp_path=tmp_path)
            table.origin = origin
            bots.agents[(code, 0, "random")] = Held(code, served, permits)
            tables.append(table)
        for table in tables:
            table.wake()
        for _ in plan:
            permits.release()
        for _ in range(6000):  # at most a minute
            if all(table.step == 1 for table in tables):
                break
            await asyncio.sleep(0.01)
        return served
    finally:
        for table in tables:
            table.close()
        bots.close()


def test_one_clients_many_tables_do_not_hold_up_another_clients_bot(tmp_path):
    plan = [(f"GRDY{n}", GREEDY) for n in range(6)] + [("OTHER", OTHER)]
    served = asyncio.run(served_order(str(tmp_path), plan))
    assert len(served) == len(plan)
    assert served.index("OTHER") == 1  # next, after the greedy client's first move (already thinking)


def test_a_clients_tables_take_turns_and_so_do_tables_of_no_known_client(tmp_path):
    plan = [("ONE01", GREEDY), ("ONE02", GREEDY), ("TWO01", OTHER), ("ONE03", GREEDY), ("LONE1", None)]
    served = asyncio.run(served_order(str(tmp_path), plan))
    assert served[:3] == ["ONE01", "TWO01", "LONE1"]  # each client's first move before anyone's second
    assert sorted(served[3:]) == ["ONE02", "ONE03"]

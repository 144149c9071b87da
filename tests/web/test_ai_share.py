"""A fair share of the AI's work (issue 24 §4): "one client within the default limits (20 tables
of hard bots a minute) used 74% of a core, delayed another table's bot by 4.4 s". The AI threads
serve the clients (the address that made a table) in turn, and each client's tables in turn, so
that many tables of one client wait behind each other, not in front of another client's table.
Checked by the order of service, not by time."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from codecrack.core.agent import Agent
from codecrack.web.bots import Bots
from codecrack.web.ports import TableEvents

from .conftest import fast_config
from .ports import HUMAN, memory_table
from .sandbox_work import Noted

AI = {"kind": "ai", "agent": "random", "name": ""}
GREEDY, OTHER = "10.0.0.1", "10.0.0.2"


async def served_order(tmp_path, plan: list[tuple[str, str | None]], workers: int = 1) -> list[str]:
    """The order in which one bot move of each table of ``plan`` ((code, client address)) is
    decided, with ``workers`` AI threads, every table's bot asking at once in the plan's order."""
    bots = Bots(fast_config(tmp_path), workers=workers)
    served = Path(tmp_path) / "served"
    events = TableEvents(drive=bots.drive)
    try:
        tables = []
        for code, origin in plan:
            table = memory_table(seats=[AI, HUMAN], options={"first": 0}, events=events, code=code, tmp_path=tmp_path)
            table.origin = origin
            bots.agents[(code, 0, "random")] = Noted(code, served)
            tables.append(table)
        for table in tables:
            table.wake()
        for _ in range(6000):  # at most a minute
            if all(table.step == 1 for table in tables):
                break
            await asyncio.sleep(0.01)
        return served.read_text().split()
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


class HeldUntil(Agent):
    """An agent that moves once the file ``go`` exists (bounded): it can be sent to a worker process."""

    def __init__(self, go: Path) -> None:
        super().__init__()
        self.go = go

    def act(self, view):
        for _ in range(6000):  # at most a minute
            if self.go.exists():
                break
            time.sleep(0.01)
        return view["legal_actions"][0]


def test_a_heavy_tables_thinking_does_not_hold_up_a_light_tables_bot(tmp_path):
    """Issue 24 §1: heavy work "runs in a pool that cannot starve [...] other tables' bots". The
    largest allowed Alphabet Code sheet thinks in the heavy thread (and from there in a worker
    process): while its bot's move is held there, a light table's bot moves, with one light thread."""

    async def run() -> None:
        bots, go = Bots(fast_config(tmp_path), workers=1), tmp_path / "go"
        events = TableEvents(drive=bots.drive)
        sheet = {"letters": 10, "columns": 13, "rows": 7}
        heavy = memory_table("alphacode", [AI, HUMAN], sheet, events=events, code="HEAVY", tmp_path=tmp_path)
        light = memory_table(seats=[AI, HUMAN], options={"first": 0}, events=events, code="LIGHT", tmp_path=tmp_path)
        bots.agents[("HEAVY", 0, "random")] = HeldUntil(go)
        try:
            assert bots.work.pool(heavy.game) is bots.work.heavy and bots.work.pool(light.game) is bots.work.light
            heavy.wake()
            light.wake()
            for _ in range(6000):  # at most a minute
                if light.step == 1:
                    break
                await asyncio.sleep(0.01)
            assert light.step == 1 and heavy.step == 0  # moved while the heavy table still thinks
        finally:
            go.touch()
            for table in (heavy, light):
                table.close()
            bots.close()

    asyncio.run(run())


def test_a_thinking_thread_holds_the_gil_at_most_work_switch_ms_while_the_event_loop_waits(tmp_path):
    """The event loop shares Python's GIL with the AI threads: each time it waits for it, a thinking
    thread keeps it up to the switch interval, which the server sets from ``work_switch_ms``."""
    before = sys.getswitchinterval()
    try:
        Bots(fast_config(tmp_path, work_switch_ms=2)).close()
        assert sys.getswitchinterval() == pytest.approx(0.002)
    finally:
        sys.setswitchinterval(before)

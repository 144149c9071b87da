"""One builder for a table's summary (issue 26 section 1): a live table and a stored row are
summarised by ``summaries.table_summary`` alone, and the two agree on what both know."""

import ast
import asyncio
from pathlib import Path

import codecrack.web
from codecrack.web.summaries import table_summary

from .ports import memory_table, watch

WEB = Path(codecrack.web.__file__).parent
LIVE_ONLY = {"step", "hints"}  # what only a loaded table knows


def test_a_live_table_and_its_stored_row_are_summarised_alike():
    table = memory_table(options={"target": 3, "first": 0})
    live = table.summary()
    assert live == table_summary(table.row, table.names(), table)
    stored = table_summary(table.row, table.names())
    assert set(stored) == set(live) - LIVE_ONLY
    assert {key: live[key] for key in stored} == stored


def test_a_finished_table_is_summarised_alike_live_and_stored():
    async def play():
        table = memory_table(options={"target": 1, "first": 0})
        assert await table.submit(0, {"type": "add", "amount": 1}) is None
        table.row.finished, table.row.result = True, table.result  # as the journal stores them
        return table

    table = asyncio.run(play())
    live = table.summary()
    assert live["over"] is True and live["result"] == table.result
    stored = table_summary(table.row, table.names())
    assert {key: live[key] for key in stored} == stored


def test_every_message_that_carries_the_table_carries_its_summary():
    async def announced():
        table = memory_table()
        seen = watch(table, seat=0)
        table.announce()
        await asyncio.wait_for(table.tasks["info"], timeout=10)
        return table, seen.messages

    table, sent = asyncio.run(announced())
    tables = [message["table"] for message in sent if "table" in message]
    assert [message["type"] for message in sent if "table" in message] == ["hello", "table"]
    assert tables == [table.summary()] * 2


def summary_literals(path: Path) -> list[int]:
    """Lines of ``path`` where a dict literal has a summary's own keys (its seats and its rematch)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            keys = {key.value for key in node.keys if isinstance(key, ast.Constant)}
            if {"seats", "rematch"} <= keys or "open_to" in keys:
                found.append(node.lineno)
    return found


def test_no_other_module_of_the_web_layer_builds_a_summary():
    """What ``LiveTable.info()`` and ``app.summary()`` once did twice is done in summaries.py only."""
    builders = {
        path.relative_to(WEB).as_posix(): lines for path in WEB.rglob("*.py") if (lines := summary_literals(path))
    }
    assert list(builders) == ["summaries.py"]

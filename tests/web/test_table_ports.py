"""A live table on in-memory ports: its pipeline, its events and its recovery paths, without a
database or a server (tests/web/ports.py)."""

import asyncio

from codecrack.i18n import _, language
from codecrack.web.connections import REPLACED, REPLACED_REASON, Connection
from codecrack.web.ports import MemoryJournal, StepTaken, TableEvents
from codecrack.web.refusals import NOT_STORED, Refusal

from .conftest import fast_config
from .ports import Recorder, memory_table, watch

ADD = {"type": "add", "amount": 1}


def test_an_action_is_stored_then_shown_and_committed_is_told():
    async def scenario():
        committed, ended = [], []
        events = TableEvents()
        events.on_committed.append(lambda table, seat, action: committed.append((table.step, seat, action)))
        events.on_ended.append(lambda table: ended.append(table.game.result))
        table = memory_table(options={"target": 2, "first": 0}, events=events)
        seen = watch(table)
        assert await table.submit(0, ADD) is None
        assert table.journal.moves[table.code] == [[0, ADD]]
        assert committed == [(1, 0, ADD)] and ended == []
        assert [m["type"] for m in seen.messages[:2]] == ["hello", "state"]
        assert [m["step"] for m in seen.messages if m["type"] == "delta"] == [1]
        assert await table.submit(1, ADD) is None
        assert ended == [{"winners": [1], "scores": None}]
        assert table.journal.results[table.code] == ended[0]

    asyncio.run(scenario())


def test_an_illegal_action_is_refused_by_kind_and_nothing_is_stored():
    async def scenario():
        table = memory_table(options={"first": 0})
        refused = await table.submit(1, ADD)
        assert refused.kind is Refusal.ILLEGAL and refused.text().startswith("seat 2 may not act now")
        assert (await table.submit(0, ADD, expect_step=3)).kind is Refusal.STALE
        assert table.journal.moves == {} and table.step == 0

    asyncio.run(scenario())


def test_a_step_stored_first_elsewhere_is_read_and_the_action_checked_again():
    """Another writer appended step 0 on the same journal: this table reads it, shows it, and
    plays its own action (still legal) as step 1."""

    async def scenario():
        journal = MemoryJournal()
        table = memory_table(game="toy", options={"first": 0}, journal=journal)
        await journal.append(table.code, 0, 0, ADD, None)
        refused = await table.submit(0, ADD)
        assert refused.kind is Refusal.MOVED_ON and "may not act now" in refused.text()
        assert table.step == 1 and table.game.record()["actions"] == [[0, ADD]]
        assert await table.submit(1, ADD) is None
        assert journal.moves[table.code] == [[0, ADD], [1, ADD]]

    asyncio.run(scenario())


class FailingJournal(MemoryJournal):
    """Appends raise; with ``landed``, the step was stored all the same (the answer to COMMIT lost)."""

    def __init__(self, landed: bool) -> None:
        super().__init__()
        self.landed = landed

    async def append(self, code, step, seat, action, result):
        if self.landed:
            await super().append(code, step, seat, action, result)
        raise ConnectionError("the database went away")


def test_a_failed_write_is_refused_unless_it_landed():
    async def scenario():
        lost = memory_table(options={"first": 0}, journal=FailingJournal(landed=False))
        assert await lost.submit(0, ADD) == NOT_STORED and lost.step == 0
        landed = memory_table(options={"first": 0}, journal=FailingJournal(landed=True))
        assert await landed.submit(0, ADD) is None and landed.step == 1

    asyncio.run(scenario())


def test_a_failing_event_listener_does_not_undo_a_committed_step():
    async def scenario():
        events = TableEvents()
        events.on_committed.append(lambda *args: 1 / 0)
        table = memory_table(options={"first": 0}, events=events)
        assert await table.submit(0, ADD) is None and table.step == 1

    asyncio.run(scenario())


def test_the_memory_journal_refuses_a_step_stored_already():
    async def scenario():
        journal = MemoryJournal()
        await journal.append("T", 0, 0, ADD, None)
        try:
            await journal.append("T", 0, 1, ADD, None)
        except StepTaken:
            return True
        return False

    assert asyncio.run(scenario())


def test_a_replaced_connection_is_told_why_in_its_own_language():
    """Issue 26: REPLACED_REASON was sent in English to everyone. The older connection's language
    is the one it joined in, not the newer connection's."""

    async def scenario():
        table = memory_table()
        with language("th"):
            older = Connection(0, Recorder())
            table.connect(older)
            expected = _(REPLACED_REASON)
        with language("en"):
            watch(table, seat=0)
        assert expected != REPLACED_REASON
        assert older.socket.messages[-1] == {"type": "error", "message": expected}
        assert older.ending == (REPLACED, REPLACED_REASON)  # a close frame's reason: ASCII, at most 123 bytes

    asyncio.run(scenario())


def test_an_idle_table_forgets_its_audiences_views_and_sends_whole_ones_next():
    """Each audience's last view is kept as the base of its next delta only while the table
    sends: ``views_kept_seconds`` after its last message it is let go (an idle table holds no view,
    docs/benchmarks.md "Idle sockets"), and the next step sends whole views, then deltas again."""

    async def scenario():
        table = memory_table(options={"target": 5, "first": 0})
        table.config = fast_config("/nonexistent", views_kept_seconds=0.01)
        seen = watch(table, seat=0)
        assert set(table.sent.latest) == {0}
        async with asyncio.timeout(60):
            while table.sent.latest:
                await asyncio.sleep(0.01)
        assert await table.submit(0, ADD) is None
        table.config = fast_config("/nonexistent", views_kept_seconds=3600)
        assert await table.submit(1, ADD) is None
        kinds = [(m["type"], m["step"]) for m in seen.messages if m["type"] in ("state", "delta")]
        assert kinds == [("state", 0), ("state", 1), ("delta", 2)]
        table.close()
        assert table.views_timer is None

    asyncio.run(scenario())

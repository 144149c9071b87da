"""The one writer: SQLite set up for a server, group commits, a failing write failing alone, answers after commits."""

import asyncio
import threading
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError

from codecrack.web import store as store_module
from codecrack.web import writer as writer_module
from codecrack.web.admin import block
from codecrack.web.app import create_app
from codecrack.web.migrate import upgrade
from codecrack.web.store import (
    BlockedName,
    Store,
    TableRow,
    actions,
    add_invited_token,
    add_move,
    add_moves,
    add_table,
    make_engine,
)
from codecrack.web.writer import Writer

from .conftest import fast_config
from .wsclient import HUMAN, RANDOM, STATES, create, seated

CODES = [f"T{index:04d}" for index in range(12)]


def engine_with_tables(url: str):
    engine = make_engine(url)
    upgrade(engine)
    store = Store(engine)
    for code in CODES:
        store.write(add_table, TableRow(code=code, game="toy", players=2, seed=1, options={}, seats=[]))
    return engine


@pytest.fixture
def sqlite_engine(tmp_path):
    engine = engine_with_tables(f"sqlite:///{tmp_path}/writer.db")
    yield engine
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path):
    """The same writer on SQLite and on PostgreSQL (a new database on the test cluster)."""
    url = f"sqlite:///{tmp_path}/writer.db" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    engine = engine_with_tables(url)
    yield engine
    engine.dispose()


class Commits:
    """Counts the engine's commits; ``hold()`` makes commits wait until ``release()`` (``held`` is
    set once one waits)."""

    def __init__(self, engine) -> None:
        self.count = 0
        self.fail_at: int | None = None  # this commit (1, 2, ...) raises
        self.gate = threading.Event()
        self.gate.set()
        self.held = threading.Event()
        event.listen(engine, "commit", self._commit)

    def _commit(self, connection) -> None:
        while not self.gate.wait(0.05):  # (looked at again: a hold may come after the first look)
            self.held.set()
        self.count += 1
        if self.count == self.fail_at:
            raise RuntimeError("disk full")

    def hold(self) -> None:
        self.gate.clear()

    def release(self) -> None:
        self.gate.set()


def blocked(started: threading.Event, release: threading.Event):
    """A write step that keeps the writer busy until ``release`` is set."""

    def change(db) -> None:
        started.set()
        release.wait()

    return change


async def queued_behind_a_busy_writer(writer: Writer, moves: list[tuple]) -> list:
    """Queue ``moves`` while the writer is busy with another write, so they form one batch;
    their outcomes (a value or the exception)."""
    started, busy = threading.Event(), threading.Event()
    first = writer.submit(blocked(started, busy))
    await asyncio.to_thread(started.wait)
    futures = [writer.submit(add_move, *move) for move in moves]
    busy.set()
    await first
    return await asyncio.gather(*futures, return_exceptions=True)


def test_sqlite_runs_in_wal_mode_with_synchronous_normal(sqlite_engine):
    with sqlite_engine.connect() as db:
        assert db.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert db.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL


def test_an_open_reader_never_blocks_the_writer(sqlite_engine):
    """A reader in the middle of its transaction; the writer still commits (without WAL the commit
    waits for the reader, then fails with "database is locked"); the reader keeps its snapshot."""
    store = Store(sqlite_engine)
    with sqlite_engine.connect() as reading:
        assert reading.execute(select(actions)).all() == []
        store.write(add_move, CODES[0], 0, 0, {"a": 1})
        assert reading.execute(select(actions)).all() == []
    assert store.moves(CODES[0]) == [[0, {"a": 1}]]


def test_the_actions_of_many_tables_queued_together_commit_in_one_transaction(engine):
    writer, commits = Writer(engine), Commits(engine)
    moves = [(code, 0, 0, {"type": "add", "amount": 1}) for code in CODES]
    outcomes = asyncio.run(queued_behind_a_busy_writer(writer, moves))
    writer.close()
    assert outcomes == [None] * len(CODES)
    assert commits.count == 2  # the busy write's batch, then every queued action in one more
    assert all(Store(engine).moves(code) == [[0, {"type": "add", "amount": 1}]] for code in CODES)


def test_the_actions_of_a_batch_are_stored_in_three_statements_whatever_their_number(engine):
    """One INSERT for the actions, one UPDATE for the tables they touch, one for those they end."""
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2].split()[0:3]))
    writer = Writer(engine, together={add_move: add_moves})
    moves = [(code, 0, 0, {"n": 1}) for code in CODES[1:]] + [(CODES[0], 0, 1, {"n": 2}, {"winners": [1]})]
    outcomes = asyncio.run(queued_behind_a_busy_writer(writer, moves))
    writer.close()
    assert outcomes == [None] * len(CODES)
    writes = [words for words in statements if words[0] in ("INSERT", "UPDATE")]
    assert writes == [["INSERT", "INTO", "actions"], ["UPDATE", "tables", "SET"], ["UPDATE", "tables", "SET"]]
    store = Store(engine)
    assert all(store.moves(code) == [[0, {"n": 1}]] for code in CODES[1:])
    assert store.moves(CODES[0]) == [[1, {"n": 2}]] and store.table(CODES[0]).result == {"winners": [1]}
    assert store.table(CODES[0]).finished and not store.table(CODES[1]).finished


def test_opening_a_table_checks_its_seats_names_in_the_statements_that_store_them(engine):
    """A new table with its creator seated is two statements (the table, the seat: the seat's INSERT
    checks its name), a claim two (one read of the invitation and the name's block, the seat): no
    read of their own for the names (issue 26's CPU per table opened). A blocked name, in any case,
    stores nothing; a wrong invitation stores nothing either."""
    store = Store(engine)
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(" ".join(args[2].split()[:3])))
    seats = [{"kind": "human", "agent": None, "name": ""}] * 2

    def row(code: str, invite: str | None = None) -> TableRow:
        return TableRow(code=code, game="toy", players=2, seed=1, options={}, seats=seats, invite=invite)

    store.write(add_table, row("N1"), {"t1": (0, "Ann")})
    assert statements == ["INSERT INTO tables", "INSERT INTO seat_tokens"]
    statements.clear()
    assert store.write(add_invited_token, "N1", 1, "t2", "Bob", None, None)
    assert statements == ["SELECT tables.invite, EXISTS", "INSERT INTO seat_tokens"]
    assert store.tokens("N1") == {"t1": (0, "Ann"), "t2": (1, "Bob")}

    block(engine, "mallory")
    with pytest.raises(BlockedName):
        store.write(add_table, row("N2"), {"t3": (0, " MALLORY ")})
    assert store.table("N2") is None and store.tokens("N2") == {}
    store.write(add_table, row("N3", invite="secret"))
    with pytest.raises(BlockedName):
        store.write(add_invited_token, "N3", 0, "t4", "Mallory", None, "secret")
    assert not store.write(add_invited_token, "N3", 0, "t5", "Carol", None, "guess")
    assert store.tokens("N3") == {}
    assert store.write(add_invited_token, "N3", 0, "t6", "Carol", None, "secret")
    assert store.tokens("N3") == {"t6": (0, "Carol")}


@pytest.mark.parametrize("together", [{}, {add_move: add_moves}], ids=["one by one", "together"])
def test_a_failing_write_in_a_batch_fails_alone(engine, together):
    """A second action for the same (table, step) violates the unique key: only it is refused
    (when the actions were stored together, the writer runs them again one by one to find it)."""
    writer = Writer(engine, together=together)
    moves = [
        (CODES[0], 0, 0, {"n": 1}),
        (CODES[1], 0, 1, {"n": 2}),
        (CODES[0], 0, 1, {"n": 3}),
        (CODES[2], 0, 0, {"n": 4}, {"winners": [0], "scores": None}),
    ]
    outcomes = asyncio.run(queued_behind_a_busy_writer(writer, moves))
    writer.close()
    assert outcomes[:2] == [None, None] and outcomes[3] is None
    assert isinstance(outcomes[2], IntegrityError)
    store = Store(engine)
    assert [store.moves(code) for code in CODES[:3]] == [[[0, {"n": 1}]], [[1, {"n": 2}]], [[0, {"n": 4}]]]
    assert store.table(CODES[2]).finished and store.table(CODES[2]).result == {"winners": [0], "scores": None}


def test_the_writes_of_one_turn_of_the_event_loop_reach_the_writer_together(sqlite_engine):
    """Queued in one turn, without waiting for the writer to be busy: still one transaction."""
    writer, commits = Writer(sqlite_engine, together={add_move: add_moves}), Commits(sqlite_engine)

    async def one_turn() -> list:
        return await asyncio.gather(*[writer.submit(add_move, code, 0, 0, {"n": 1}) for code in CODES])

    assert asyncio.run(one_turn()) == [None] * len(CODES)
    writer.close()
    assert commits.count == 1


def test_closing_the_writer_commits_what_a_loop_queued_in_its_last_turn(sqlite_engine):
    """The loop stops in the turn that queued a write, before the turn that would hand it over."""
    writer, loop = Writer(sqlite_engine), asyncio.new_event_loop()
    loop.call_soon(writer.submit, add_move, CODES[0], 0, 0, {"n": 1})
    loop.call_soon(loop.stop)
    loop.run_forever()
    loop.close()
    writer.close()
    assert Store(sqlite_engine).moves(CODES[0]) == [[0, {"n": 1}]]


def test_a_failed_commit_fails_every_write_of_its_batch(engine):
    writer, commits = Writer(engine), Commits(engine)
    commits.fail_at = 2  # the queued actions' batch, after the busy write's
    outcomes = asyncio.run(queued_behind_a_busy_writer(writer, [(code, 0, 0, {"n": 1}) for code in CODES[:3]]))
    writer.close()
    assert [str(outcome) for outcome in outcomes] == ["disk full"] * 3
    assert [Store(engine).moves(code) for code in CODES[:3]] == [[], [], []]


def test_the_writer_stores_again_after_a_failed_commit(engine):
    """The failed commit leaves nothing open on the writer's connection (SQLite's is kept)."""
    writer, commits = Writer(engine, together={add_move: add_moves}), Commits(engine)
    commits.fail_at = 1

    async def twice() -> list:
        first = await asyncio.gather(writer.submit(add_move, CODES[0], 0, 0, {"n": 1}), return_exceptions=True)
        return [*first, await writer.submit(add_move, CODES[0], 0, 0, {"n": 2})]

    outcomes = asyncio.run(twice())
    writer.close()
    assert [str(outcome) for outcome in outcomes] == ["disk full", "None"]
    assert Store(engine).moves(CODES[0]) == [[0, {"n": 2}]]


def test_sqlite_stores_a_batch_as_sqlalchemy_would(tmp_path, monkeypatch):
    """The driver path of ``execute_many`` stores the very text SQLAlchemy's ``execute`` stores."""
    moves = [
        (CODES[0], 0, 1, {"type": "x", "v": [1, 2.5, None, "é", True]}),
        (CODES[1], 0, 0, {"n": 1}, {"winners": [0], "scores": None}),
        (CODES[2], 0, 0, {}, None),
    ]
    monkeypatch.setattr(store_module, "now", lambda: datetime(2026, 12, 2, 3, 4, 5, 678901, tzinfo=UTC))
    stored = []
    for way in ("execute", "driver"):
        engine = engine_with_tables(f"sqlite:///{tmp_path}/{way}.db")
        with monkeypatch.context() as patch:
            if way == "execute":
                patch.setattr(store_module, "execute_many", lambda db, statement, rows: db.execute(statement, rows))
            Store(engine).write(add_moves, moves)
        with engine.connect() as db:
            stored.append(
                [
                    db.exec_driver_sql("SELECT * FROM actions").all(),
                    db.exec_driver_sql("SELECT code, finished, result, active_at FROM tables").all()[:3],
                ]
            )
        engine.dispose()
    assert stored[0] == stored[1]
    assert stored[1][1][1] == ("T0001", 1, '{"winners": [0], "scores": null}', "2026-12-02 03:04:05.678901")


def test_a_write_is_answered_only_after_its_commit(engine):
    writer, commits = Writer(engine), Commits(engine)

    async def scenario() -> list[str]:
        seen = []
        commits.hold()
        stored = writer.submit(add_move, CODES[0], 0, 0, {"n": 1})
        await asyncio.sleep(0.05)
        seen.append("answered" if stored.done() else "waiting")
        commits.release()
        await stored
        seen.append(f"stored {len(Store(engine).moves(CODES[0]))}")
        return seen

    assert asyncio.run(scenario()) == ["waiting", "stored 1"]
    writer.close()


def test_pending_counts_the_writes_not_answered_yet_failed_ones_included(sqlite_engine):
    """The queue's depth (readiness, metrics): up at each submit, down when the writer answers,
    whether the write was stored or failed."""
    writer, commits = Writer(sqlite_engine), Commits(sqlite_engine)

    async def scenario() -> list[int]:
        seen = []
        commits.hold()
        first = writer.submit(add_move, CODES[0], 0, 0, {"n": 1})
        await asyncio.to_thread(commits.held.wait)
        later = [writer.submit(add_move, code, 0, 0, {"n": 1}) for code in CODES[1:3]]
        seen.append(writer.pending)
        commits.fail_at = 2
        commits.release()
        await asyncio.gather(first, *later, return_exceptions=True)
        seen.append(writer.pending)
        return seen

    assert asyncio.run(scenario()) == [3, 0]
    writer.close()


def test_nobody_is_shown_an_action_before_it_is_committed(tmp_path):
    with TestClient(create_app(fast_config(tmp_path))) as client:
        commits = Commits(client.app.state.hub.engine)
        made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0, "target": 9})
        bob_token = client.post(f"/api/tables/{made['code']}/join", json={"seat": 1}).json()["token"]
        with seated(client, made["code"], made["token"]) as ann, seated(client, made["code"], bob_token) as bob:
            commits.hold()
            ann.act({"type": "add", "amount": 2})
            bob.ws.send_json({"type": "ping"})  # answered while the action's commit is held
            bob.until(lambda m: m["type"] == "pong")
            assert [m["step"] for m in bob.log if m["type"] in STATES] == [0]
            commits.release()
            assert ann.state_at(1)["total"] == 2 and bob.state_at(1)["total"] == 2


def test_an_action_whose_sender_is_replaced_during_its_commit_still_reaches_everyone(tmp_path):
    """Ann's action is being committed when she opens the table again (a reload): her old
    connection is closed and its message loop cancelled mid-submission. The write was queued and
    commits all the same, so the live game must follow it (before, it stayed a step behind the
    stored record until a later write collided with it)."""
    with TestClient(create_app(fast_config(tmp_path))) as client:
        hub, commits = client.app.state.hub, Commits(client.app.state.hub.engine)
        made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0, "target": 9})
        code = made["code"]
        bob_token = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
        table = hub.live[code]
        with seated(client, code, bob_token) as bob, seated(client, code, made["token"]) as ann:
            commits.hold()
            ann.act({"type": "add", "amount": 2})
            assert commits.held.wait(60)  # her action is being committed, not still unread
            with seated(client, code, made["token"]) as ann_again:
                ann.until(lambda m: m["type"] == "error")  # replaced: the old connection closes
                bob.ws.send_json({"type": "ping"})
                bob.until(lambda m: m["type"] == "pong")
                commits.release()
                client.portal.call(table.lock.acquire)  # the submission is over
                table.lock.release()
                assert table.step == 1 and hub.store.moves(code) == [[0, {"type": "add", "amount": 2}]]
                assert bob.state_at(1)["total"] == 2 and ann_again.state_at(1)["total"] == 2


def test_the_writer_keeps_its_connection_from_commit_to_commit(engine, monkeypatch):
    """No pool checkout (on PostgreSQL: a ping, a round trip) per commit while writes keep coming."""
    monkeypatch.setattr(writer_module, "IDLE_SECONDS", 3600.0)
    checkouts: list[object] = []
    event.listen(engine, "checkout", lambda *args: checkouts.append(args))
    writer = Writer(engine)

    async def one_by_one() -> None:
        for step, code in enumerate(CODES):
            await writer.write(add_move, code, step, 0, {"type": "add", "amount": 1})

    asyncio.run(one_by_one())
    writer.close()
    assert len(checkouts) == 1
    assert all(len(Store(engine).moves(code)) == 1 for code in CODES)


def test_a_write_after_postgresql_restarted_during_a_pause_is_stored(postgres, postgres_url, monkeypatch):
    """After a pause, the writer checks its connection out of the pool again, which pings it: a
    PostgreSQL restart during the pause costs no write. (A pause of 0 s stands for one longer than
    ``IDLE_SECONDS``.)"""
    monkeypatch.setattr(writer_module, "IDLE_SECONDS", 0.0)
    engine = engine_with_tables(postgres_url)
    writer = Writer(engine)
    asyncio.run(writer.write(add_move, CODES[0], 0, 0, {"type": "add", "amount": 1}))
    postgres.stop()
    postgres.start()
    asyncio.run(writer.write(add_move, CODES[0], 1, 1, {"type": "add", "amount": 2}))
    writer.close()
    assert len(Store(engine).moves(CODES[0])) == 2
    engine.dispose()


def test_a_table_dropped_during_its_bots_commit_follows_the_move_and_plays_no_more(tmp_path):
    """The server drops a table nobody watches (pushed out of the loaded tables, or the server
    stopping) while its bot's move is being committed. The move commits all the same and the
    dropped table follows it, but no bot starts there again: only a copy loaded anew plays on
    (before, the dropped table woke its bots after the commit and played on, unseen)."""
    with TestClient(create_app(fast_config(tmp_path))) as client:
        hub, commits = client.app.state.hub, Commits(client.app.state.hub.engine)
        code = create(client, "toy", [RANDOM, RANDOM], options={"target": 99})["code"]
        table = hub.live[code]
        commits.hold()
        assert commits.held.wait(60)  # a bot's move is being committed
        step = table.step
        client.portal.call(hub.unload, table)
        commits.release()
        client.portal.call(table.lock.acquire)  # the submission is over
        client.portal.call(table.lock.release)
        assert table.step == step + 1 and hub.store.moves(code)[: step + 1] == table.game.record()["actions"]
        assert not any(table.running(("bot", seat)) for seat in range(2))

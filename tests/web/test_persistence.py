"""Records are stored before they are broadcast, survive a restart, and migrations run at start-up."""

import random
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text

import codecrack
from codecrack.web.app import create_app
from codecrack.web.migrate import upgrade
from codecrack.web.notify.email import subscribers, unsubscribe_key
from codecrack.web.players.identity import aware
from codecrack.web.store import Store, make_engine, metadata, notify_emails

from .conftest import fast_config
from .faults import GUARD, Faults
from .wsclient import HUMAN, RANDOM, Seat, create, play_out, seated, view_at


def stored_record(config, code):
    store = Store(make_engine(config.db_url))
    return store.table(code).record(store.moves(code))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """SQLite in a temporary folder, or a new database on the test PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/web.db"
    return request.getfixturevalue("postgres_url")


def test_migrations_create_the_schema_and_run_twice(tmp_path, db_url):
    if db_url.startswith("sqlite"):
        db_url = f"sqlite:///{tmp_path}/deep/folder/x.db"  # the file's folders are created too
    engine = make_engine(db_url)
    upgrade(engine)
    upgrade(engine)
    assert {"tables", "actions", "seat_tokens", "alembic_version"} <= set(inspect(engine).get_table_names())


def test_the_migrations_give_the_schema_of_the_models(db_url):
    """Every table, column and index of ``store.metadata``, and nothing else (no index left over)."""
    engine = make_engine(db_url)
    upgrade(engine)
    with engine.connect() as db:
        assert compare_metadata(MigrationContext.configure(db), metadata) == []
    engine.dispose()


def test_the_unsubscribe_key_moves_into_the_one_store_of_secrets(db_url):
    """A server that kept its e-mail links' key in ``server_keys`` (0013-0017) signs with the same
    key after migration 0018: the links of e-mails already sent stay valid."""
    engine = make_engine(db_url)
    upgrade(engine, "0017")
    with engine.begin() as db:
        db.execute(text("INSERT INTO server_keys (name, value) VALUES ('unsubscribe', 'kept-since-0013')"))
        db.execute(text("INSERT INTO server_secrets (name, value) VALUES ('daily', 'the-daily-one')"))
    upgrade(engine)
    assert unsubscribe_key(engine) == "kept-since-0013"
    assert "server_keys" not in inspect(engine).get_table_names()
    with engine.connect() as db:
        assert db.execute(text("SELECT value FROM server_secrets WHERE name = 'daily'")).scalar() == "the-daily-one"
    engine.dispose()


def test_an_address_stored_before_confirmation_links_counts_as_confirmed(db_url):
    """Migration 0022: an address opted in before its link existed is confirmed when its player
    consented, so its player keeps the e-mails (a new one waits for its link: test_notify_email)."""
    engine = make_engine(db_url)
    upgrade(engine, "0021")
    consented = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    with engine.begin() as db:
        db.execute(text("INSERT INTO players (id, name, created_at) VALUES (1, 'Ann', :at)"), {"at": consented})
        db.execute(
            text(
                "INSERT INTO notify_emails (player_id, address, language, consented_at)"
                " VALUES (1, 'ann@example.org', 'th', :at)"
            ),
            {"at": consented},
        )
    upgrade(engine)
    with engine.connect() as db:
        [row] = db.execute(select(notify_emails)).all()
        assert (row.address, aware(row.confirmed_at)) == ("ann@example.org", consented)
        assert [row["address"] for row in subscribers(db, [1])] == ["ann@example.org"]  # e-mails go to it
    engine.dispose()


def two_humans_and_an_ai(client, game: str, options: dict[str, Any]) -> tuple[str, dict[int, str]]:
    """A new table: seats 0 and 1 human, both taken, seat 2 a random AI. Its code and the two tokens."""
    made = create(client, game, [HUMAN, HUMAN, RANDOM], sit=0, options=options)
    code = made["code"]
    return code, {0: made["token"], 1: client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]}


def shown(players: dict[int, Seat]) -> dict[int, tuple[int, dict[str, Any]]]:
    """The step and the view each seat was shown last."""
    return {seat: (player.step, player.view) for seat, player in players.items()}


def assert_rebuilt(config, code: str, before: dict[int, tuple[int, dict[str, Any]]], players: dict[int, Seat]) -> None:
    """The stored record holds what each seat was shown before the restart, at the step it was
    shown, and each seat is greeted with the stored state at its own step. The seats are greeted
    one after another and the restored AI seats play on meanwhile: their steps may differ."""
    record = stored_record(config, code)
    for seat, (step, view) in before.items():
        assert len(record["actions"]) >= step and view_at(record, step, seat) == view
    for seat, player in players.items():
        assert player.step >= before[seat][0] and player.view == view_at(record, player.step, seat)


def test_a_restarted_server_rebuilds_the_table_and_play_carries_on(tmp_path, db_url):
    config = fast_config(tmp_path, db_url=db_url)
    rng = random.Random(5)
    with TestClient(create_app(config)) as client:
        code, tokens = two_humans_and_an_ai(client, "coda", {"first": 0, "dashes": True})
        with seated(client, code, tokens[0]) as ann, seated(client, code, tokens[1]) as bob:
            play_out({0: ann, 1: bob}, rng, steps=12)
            before = shown({0: ann, 1: bob})
    # a new server on the same database: every acknowledged action is back, and play goes on
    with TestClient(create_app(config)) as client:
        with seated(client, code, tokens[0]) as ann, seated(client, code, tokens[1]) as bob:
            assert_rebuilt(config, code, before, {0: ann, 1: bob})
            table = play_out({0: ann, 1: bob}, rng)
        assert table["over"] and table["result"]["winners"]
    assert codecrack.replay(stored_record(config, code)).over


def test_a_restart_greets_each_seat_with_the_stored_state_when_the_ai_moves_between_greetings(
    tmp_path, db_url, bots_wait
):
    """The restored AI seat moves after Ann's greeting and before Bob's: each greeting is the stored
    state at its own step (the test above once compared Bob's with his view before the restart
    because Ann's step had not moved, and failed so on a busy machine)."""
    config = fast_config(tmp_path, db_url=db_url)
    with TestClient(create_app(config)) as client:
        code, tokens = two_humans_and_an_ai(client, "toy", {"first": 0, "target": 99})
        with seated(client, code, tokens[0]) as ann, seated(client, code, tokens[1]) as bob:
            ann.act({"type": "add", "amount": 1})
            bob.state_at(1)
            bob.act({"type": "add", "amount": 2})
            for player in (ann, bob):
                player.state_at(2)  # the AI seat's turn: it waits for bots_wait
            before = shown({0: ann, 1: bob})
    with TestClient(create_app(config)) as client:
        with seated(client, code, tokens[0]) as ann:
            bots_wait.set()
            ann.state_at(3)
            with seated(client, code, tokens[1]) as bob:
                assert [ann.views[0][0], bob.views[0][0]] == [2, 3]  # greeted before and after the AI's move
                assert_rebuilt(config, code, before, {0: ann, 1: bob})


def test_a_table_played_and_unloaded_while_it_was_being_restored_is_read_again(tmp_path):
    """The quoted fault (seen under load as "the game is not over yet" on a rematch): the start-up
    restore read a table's actions; the table, live meanwhile, played its final action and was
    unloaded (finished, nobody watching); the restore then kept the copy it had read, a live
    table one step behind the store, shown to every viewer and refusing the rematch."""
    with TestClient(create_app(fast_config(tmp_path))) as client:
        hub = client.app.state.hub
        made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0, "target": 1})
        code = made["code"]
        held = Faults(hub.engine).hold("SELECT seat_tokens")  # a load's last read, after the actions
        restoring = client.portal.start_task_soon(hub.restore)
        assert held.reached.wait(GUARD)
        with seated(client, code, made["token"]) as ann:
            ann.act({"type": "add", "amount": 1})
            assert ann.state_at(1)["total"] == 1
        assert code not in hub.live  # finished and nobody watching: unloaded
        held.release()
        restoring.result(GUARD)
        table = client.portal.call(hub.find, code)
        assert (table.step, table.game.over) == (1, True)
        assert client.portal.call(hub.rematch, table).code != code

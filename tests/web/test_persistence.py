"""Records are stored before they are broadcast, survive a restart, and migrations run at start-up."""

import os
import random

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

import codecrack
from codecrack.web.app import create_app
from codecrack.web.migrate import upgrade
from codecrack.web.store import Store, make_engine, metadata

from .conftest import fast_config
from .wsclient import HUMAN, RANDOM, create, play_out, seated, view_at


def test_migrations_create_the_schema_and_run_twice(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path}/deep/folder/x.db")
    upgrade(engine)
    upgrade(engine)
    assert {"tables", "actions", "seat_tokens", "alembic_version"} <= set(inspect(engine).get_table_names())


def stored_record(config, code):
    store = Store(make_engine(config.db_url))
    return store.table(code).record(store.moves(code))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """SQLite in a temporary folder; PostgreSQL too when ``CODECRACK_TEST_POSTGRES`` gives a URL
    to an empty, disposable database (its tables are dropped first)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/web.db"
    url = os.environ.get("CODECRACK_TEST_POSTGRES")
    if not url:
        pytest.skip("set CODECRACK_TEST_POSTGRES=postgresql+psycopg://... to test PostgreSQL")
    engine = make_engine(url)
    with engine.begin() as db:
        metadata.drop_all(db)
        db.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
    return url


def test_a_restarted_server_rebuilds_the_table_and_play_carries_on(tmp_path, db_url):
    config = fast_config(tmp_path, db_url=db_url)
    rng = random.Random(5)
    with TestClient(create_app(config)) as client:
        made = create(client, "coda", [HUMAN, HUMAN, RANDOM], sit=0, options={"first": 0, "dashes": True})
        code = made["code"]
        tokens = {0: made["token"], 1: client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]}
        with seated(client, code, tokens[0]) as ann, seated(client, code, tokens[1]) as bob:
            play_out({0: ann, 1: bob}, rng, steps=12)
            step = ann.step
            before = {0: ann.view, 1: bob.view}
        assert len(stored_record(config, code)["actions"]) >= step
    # a new server on the same database: every acknowledged action is back, and play goes on
    with TestClient(create_app(config)) as client:
        with seated(client, code, tokens[0]) as ann, seated(client, code, tokens[1]) as bob:
            assert ann.step >= step and bob.step >= step
            assert ann.view == view_at(stored_record(config, code), ann.step, 0)
            if ann.step == step:  # the AI seat had nothing to do since
                assert ann.view == before[0] and bob.view == before[1]
            table = play_out({0: ann, 1: bob}, rng)
        assert table["over"] and table["result"]["winners"]
    assert codecrack.replay(stored_record(config, code)).over

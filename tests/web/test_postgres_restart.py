"""A restart of the real PostgreSQL server under a running codecrack server (issue 11): while it is
down, actions and new tables are refused with a clear retry message (not a 500, not a hang) and
nothing is half-applied; once it is back, play resumes, bots included, and nothing was lost."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, RANDOM, coda_on_the_clock, create, seated

RETRY = "please try again"


def until_logged(caplog, *words: str, seconds: float = 120.0) -> None:
    """Wait (bounded: a hang guard) until a log record holds every one of ``words``."""
    deadline = time.monotonic() + seconds
    while not any(all(word in r.getMessage() for word in words) for r in caplog.records):
        assert time.monotonic() < deadline, f"nothing logged with {words} in {seconds:.0f} s"
        time.sleep(0.05)


def assert_memory_matches_disk(client, code, steps):
    hub = client.app.state.hub
    table, moves = hub.live[code], hub.store.moves(code)
    assert len(moves) == steps and table.step == steps
    assert table.game.record()["actions"] == moves


def test_while_postgresql_is_down_nothing_is_played_and_play_resumes_after(
    tmp_path, postgres, postgres_url, bots_wait, caplog
):
    config = fast_config(tmp_path, db_url=postgres_url)
    with TestClient(create_app(config), raise_server_exceptions=False) as client:
        made = create(client, "toy", [HUMAN, RANDOM, HUMAN], sit=0, options={"first": 0, "target": 99})
        code = made["code"]
        cy_token = client.post(f"/api/tables/{code}/join", json={"seat": 2}).json()["token"]
        with seated(client, code, made["token"]) as ann, seated(client, code, cy_token) as cy:
            ann.act({"type": "add", "amount": 1})
            assert ann.state_at(1)["total"] == 1

            # the bot's turn comes while the database is down: it tries again until it is back
            postgres.stop()
            bots_wait.set()
            refused = client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN]})
            assert refused.status_code == 503 and RETRY in refused.json()["detail"]
            until_logged(caplog, "bot move", "could not store")  # its move came from a worker process
            postgres.start()
            assert cy.state_at(2)["total"] in (2, 3)

            # a human's action while it is down: refused, nothing shown, and it can be sent again
            postgres.stop()
            cy.act({"type": "add", "amount": 2})
            assert RETRY in cy.until(lambda m: m["type"] == "error")["message"]
            postgres.start()
            assert_memory_matches_disk(client, code, 2)
            cy.act({"type": "add", "amount": 2})
            assert ann.state_at(3)["total"] == cy.state_at(3)["total"]
            assert [step for step, _ in cy.views] == [0, 1, 2, 3]
        assert_memory_matches_disk(client, code, 3)


def test_a_clock_that_runs_out_while_postgresql_is_down_rings_again_once_it_is_back(
    tmp_path, postgres, postgres_url, caplog
):
    """Coda's turn clock: its timeout cannot be stored while the database is down, so it is sent
    again a moment later until it is stored, instead of leaving the table waiting for ever."""
    config = fast_config(tmp_path, db_url=postgres_url, turn_think=0.5, turn_countdown=0.5)
    with TestClient(create_app(config), raise_server_exceptions=False) as client:
        with coda_on_the_clock(client) as (code, ann, bob):
            ann.state_at(2)  # both rows are dealt: Ann's turn clock runs
            postgres.stop()
            for _ in range(600):  # until a timeout could not be stored (or a minute has passed)
                if any("could not store" in r.getMessage() for r in caplog.records):
                    break
                time.sleep(0.1)
            down_at = client.app.state.hub.live[code].step
            postgres.start()
            ann.state_at(down_at + 1)  # the timeout that failed is stored once the database is back
        moves = client.app.state.hub.store.moves(code)
        assert len(moves) > down_at and all(move == {"type": "timeout"} for _, move in moves[2:])

"""``codecrack admin`` (issue 29 §6) against a real server, on SQLite and on PostgreSQL: list the
live tables, close one (its connected player is told why and the table is gone), rename, block and
unblock a name, delete a player's personal data, show the limits, and check that every record
replays."""

from __future__ import annotations

import contextvars
import json

import httpx
import pytest
from sqlalchemy import select
from typer.testing import CliRunner
from websockets.sync.client import connect

from codecrack.cli import app
from codecrack.loadtest.target import codecrack_server, websocket_base
from codecrack.web.store import chat_lines, make_engine, player_sessions, players, seat_tokens, tables

from ..cluster.players import Player

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}
ADMIN_TOKEN = "admin-token-3c9e51f0a2"


def admin(db_url: str, *args: str, **environ: str):
    """Run ``codecrack admin ARGS --db DB_URL`` (``--db`` only where the command takes it)."""
    takes_db = args[0] not in ("close", "limits", "instances")
    argv = ["admin", *args, *(["--db", db_url] if takes_db else [])]
    return contextvars.copy_context().run(CliRunner().invoke, app, argv, env=environ, terminal_width=200)


def names_stored(db_url: str) -> tuple[set[str], set[str]]:
    """Every claimed seat's name, and every seat plan's name."""
    engine = make_engine(db_url)
    with engine.connect() as db:
        claimed = set(db.execute(select(seat_tokens.c.name)).scalars())
        planned = {seat["name"] for seats in db.execute(select(tables.c.seats)).scalars() for seat in seats}
    engine.dispose()
    return claimed, planned


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/admin.db"
    return request.getfixturevalue("postgres_url")


def test_admin_commands(db_url):
    settings = {"CODECRACK_ADMIN_TOKEN": ADMIN_TOKEN, "CODECRACK_AI_PACE": "0"}
    with codecrack_server(db_url, **settings) as server:
        # a finished game between Bob and Mallory (and a bot), and a table where Mallory waits
        done = httpx.post(
            f"{server.url}/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN, RANDOM], "sit": 0, "name": "Bob"}
        ).json()
        other = httpx.post(f"{server.url}/api/tables/{done['code']}/join", json={"seat": 1, "name": "Mallory"}).json()
        players = [
            Player(server.url, done["code"], token, seed=i) for i, token in enumerate([done["token"], other["token"]])
        ]
        for player in players:
            player.start()
        for player in players:
            player.finish()
        waiting = httpx.post(
            f"{server.url}/api/tables",
            json={"game": "coda", "seats": [HUMAN, {"kind": "human", "name": "Mallory"}], "sit": 0, "name": "Mallory"},
        ).json()

        listed = admin(db_url, "tables")
        assert waiting["code"] in listed.output and done["code"] not in listed.output and "Mallory" in listed.output
        assert json.loads(admin(db_url, "limits").output)["messages_per_second"] == 20.0
        checked = admin(db_url, "check")
        assert checked.exit_code == 0, checked.output
        assert "1 finished and 1 unfinished tables, 0 problems" in checked.output

        # close the waiting table while Mallory is connected: she is told why, and it is gone
        with connect(f"{websocket_base(server.url)}/ws/{waiting['code']}") as socket:
            socket.send(json.dumps({"type": "hello", "token": waiting["token"]}))
            while json.loads(socket.recv(timeout=30))["type"] != "state":
                pass
            refused = admin(db_url, "close", waiting["code"], "--reason", "spam", "--url", server.url)
            assert refused.exit_code == 2 and "CODECRACK_ADMIN_TOKEN" in refused.output
            wrong = admin(
                db_url,
                "close",
                waiting["code"],
                "--reason",
                "spam",
                "--url",
                server.url,
                CODECRACK_ADMIN_TOKEN="x" * 20,
            )
            assert wrong.exit_code == 2 and "403" in wrong.output
            closed = admin(
                db_url,
                "close",
                waiting["code"],
                "--reason",
                "spam",
                "--url",
                server.url,
                CODECRACK_ADMIN_TOKEN=ADMIN_TOKEN,
            )
            assert closed.exit_code == 0, closed.output
            messages = []
            with pytest.raises(Exception) as ended:
                while True:
                    messages.append(json.loads(socket.recv(timeout=30)))
            assert any(m["type"] == "error" and "spam" in m["message"] for m in messages)
            assert ended.value.rcvd.code == 4410
        assert httpx.get(f"{server.url}/api/tables/{waiting['code']}").status_code == 404
        assert waiting["code"] not in admin(db_url, "tables").output

        # names: rename, block (any case), unblock, forget
        assert "2 tables changed" in admin(db_url, "rename", "Mallory", "Mal").output
        claimed, planned = names_stored(db_url)
        assert "Mallory" not in claimed | planned and "Mal" in claimed and "Mal" in planned
        assert admin(db_url, "block", "mAL").exit_code == 0
        fresh = httpx.post(f"{server.url}/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN]}).json()
        refused = httpx.post(f"{server.url}/api/tables/{fresh['code']}/join", json={"seat": 0, "name": " MAL "})
        assert refused.status_code == 400 and "not allowed" in refused.json()["detail"]
        planned_refused = httpx.post(
            f"{server.url}/api/tables", json={"game": "coda", "seats": [HUMAN, {"kind": "human", "name": "Mal"}]}
        )
        assert planned_refused.status_code == 400
        # the creator sitting down with a blocked name: refused, and no table stored for it
        before = len(admin(db_url, "tables").output.splitlines())
        sat_refused = httpx.post(
            f"{server.url}/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN], "sit": 1, "name": "MAL"}
        )
        assert sat_refused.status_code == 400 and "not allowed" in sat_refused.json()["detail"]
        assert len(admin(db_url, "tables").output.splitlines()) == before
        assert admin(db_url, "unblock", "Mal").exit_code == 0
        assert (
            httpx.post(f"{server.url}/api/tables/{fresh['code']}/join", json={"seat": 0, "name": "Mal"}).status_code
            == 200
        )

        assert admin(db_url, "forget", "Mal").exit_code == 0
        claimed, planned = names_stored(db_url)
        assert "Mal" not in claimed | planned and "Player 2" in claimed
        assert admin(db_url, "check").exit_code == 0


def test_forget_deletes_the_account(db_url):
    """Issue 29 §6: ``admin forget`` deletes the player's personal data, the account with it (its
    row, handle, password hash and sessions) and what they said, not only the names on seats."""
    password = "correct horse battery"
    with codecrack_server(db_url, CODECRACK_AI_PACE="0") as server:
        with httpx.Client(base_url=server.url, headers={"origin": server.url}, timeout=30) as eve:
            made = eve.post("/api/me/guest", json={"name": "Eve"})
            eve.headers["x-csrf-token"] = made.json()["csrf"]
            account = eve.post("/api/me/account", json={"handle": "Eve", "password": password})
            assert account.status_code == 200, account.text
            eve.headers["x-csrf-token"] = account.json()["csrf"]  # a new session
            created = eve.post("/api/tables", json={"game": "coda", "seats": [HUMAN, RANDOM], "sit": 0})
            assert created.status_code == 200, created.text
            code = created.json()["code"]
            with connect(f"{websocket_base(server.url)}/ws/{code}") as socket:
                socket.send(json.dumps({"type": "hello", "token": created.json()["token"]}))
                socket.send(json.dumps({"type": "chat", "text": "Eve here, from Oslo"}))
                said = []
                while not said:
                    message = json.loads(socket.recv(timeout=30))
                    said = [line for line in message.get("lines", []) if "Oslo" in line["body"]]

            forgot = admin(db_url, "forget", "Eve")
            assert forgot.exit_code == 0 and "1 tables changed" in forgot.output, forgot.output

            assert eve.get("/api/me").json()["player"] is None  # its session is gone
        signed_in = httpx.post(
            f"{server.url}/api/session",
            json={"handle": "Eve", "password": password},
            headers={"origin": server.url},
            timeout=30,  # the password's hash is checked: seconds on a busy machine (httpx waits 5 s by default)
        )
        assert signed_in.status_code == 401
        engine = make_engine(db_url)
        with engine.connect() as db:
            assert db.execute(select(players)).all() == []
            assert db.execute(select(player_sessions)).all() == []
            assert db.execute(select(chat_lines)).all() == []
            assert db.execute(select(seat_tokens.c.name, seat_tokens.c.player_id)).all() == [("Player 1", None)]
        engine.dispose()
        assert httpx.get(f"{server.url}/api/tables/{code}").status_code == 200
        assert admin(db_url, "check").exit_code == 0


def test_block_and_unblock_say_whether_they_changed_anything(db_url):
    """``block`` is ``False`` for a name already blocked (any case), ``unblock`` for one that was not.
    Before: ``block`` was ``False`` on PostgreSQL even when it stored the name (SQLAlchemy closed the
    INSERT's cursor before its row count was read: -1)."""
    from codecrack.web.admin import block, unblock
    from codecrack.web.migrate import upgrade

    engine = make_engine(db_url)
    try:
        upgrade(engine)
        assert block(engine, "Mallory") and not block(engine, "mALLORY")
        assert unblock(engine, "mallory") and not unblock(engine, "Mallory")
    finally:
        engine.dispose()

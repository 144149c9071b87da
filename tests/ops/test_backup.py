"""Backups that restore (issue 29 §5), on SQLite and on PostgreSQL: a backup taken while games are
played restores into a fresh database where every finished game replays to its stored result, and
every unfinished one resumes: its players reconnect with their tokens and play it to its end."""

from __future__ import annotations

import subprocess

import httpx
import psycopg
import pytest
from sqlalchemy import inspect, make_url, select

from codecrack.loadtest.target import codecrack_server
from codecrack.web.backup import BackupError, backup, pg_tool, restore
from codecrack.web.migrate import upgrade
from codecrack.web.records import check_records
from codecrack.web.store import make_engine, seat_tokens

from ..cluster.players import Player
from ..cluster.services import wait_until

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}
SETTINGS = {"CODECRACK_AI_PACE": "0", "CODECRACK_TABLE_INFO_INTERVAL": "0"}


def open_table(url: str) -> tuple[str, list[str]]:
    """A Coda table of two humans and a bot, both human seats claimed: its code and tokens."""
    made = httpx.post(f"{url}/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN, RANDOM], "sit": 0}).json()
    other = httpx.post(f"{url}/api/tables/{made['code']}/join", json={"seat": 1, "name": "bo"}).json()
    return made["code"], [made["token"], other["token"]]


def tokens_of(db_url: str, code: str) -> list[str]:
    engine = make_engine(db_url)
    with engine.connect() as db:
        found = db.execute(
            select(seat_tokens.c.token).where(seat_tokens.c.table_code == code).order_by(seat_tokens.c.seat)
        ).scalars()
        tokens = list(found)
    engine.dispose()
    return tokens


def play_out(url: str, code: str, tokens: list[str], seed: int) -> None:
    players = [Player(url, code, token, seed=seed + i) for i, token in enumerate(tokens)]
    for player in players:
        player.start()
    for player in players:
        player.finish()


def back_up_under_load_and_restore(db_url: str, fresh_url: str, out) -> None:
    with codecrack_server(db_url, **SETTINGS) as server:
        finished = [open_table(server.url) for _ in range(2)]
        stalled = [open_table(server.url) for _ in range(2)]
        # one player of each stalled table plays until it waits for the other one (who never comes)
        waiting = [Player(server.url, code, tokens[0], seed=i) for i, (code, tokens) in enumerate(stalled)]
        for player in waiting:
            player.start()
        wait_until(lambda: all(player.step >= 0 for player in waiting), "the stalled tables are played")
        playing = [
            Player(server.url, code, token, seed=10 + i) for code, tokens in finished for i, token in enumerate(tokens)
        ]
        for player in playing:
            player.start()
        wait_until(lambda: any(player.step >= 2 for player in playing), "the games are under way")
        backup(db_url, out)  # while they play
        for player in playing:
            player.finish()
        for player in waiting:  # it leaves
            player.result = {}
            player.join()
    restore(out, fresh_url)
    engine = make_engine(fresh_url)
    try:
        found = check_records(engine)
        assert found.problems == []
        assert found.unfinished >= len(stalled)
        with codecrack_server(fresh_url, **SETTINGS) as server:
            for seed, (code, _) in enumerate(stalled + finished):
                if not httpx.get(f"{server.url}/api/tables/{code}").json()["over"]:
                    play_out(server.url, code, tokens_of(fresh_url, code), seed=20 + seed)
        after = check_records(engine)
        assert after.problems == [] and after.unfinished == 0
        assert after.finished == len(stalled) + len(finished)
    finally:
        engine.dispose()


def test_a_sqlite_backup_taken_under_load_restores(tmp_path):
    back_up_under_load_and_restore(
        f"sqlite:///{tmp_path}/live.db", f"sqlite:///{tmp_path}/restored.db", tmp_path / "b.db"
    )


def test_a_postgresql_backup_taken_under_load_restores(tmp_path, postgres, postgres_url):
    back_up_under_load_and_restore(postgres_url, postgres.new_database(), tmp_path / "b.dump")


def test_a_backup_restores_only_into_an_empty_database_of_its_kind(tmp_path, postgres_url):
    db_url = f"sqlite:///{tmp_path}/live.db"
    engine = make_engine(db_url)
    upgrade(engine)
    engine.dispose()
    backup(db_url, tmp_path / "b.db")
    with pytest.raises(BackupError, match="exists"):
        backup(db_url, tmp_path / "b.db")
    with pytest.raises(BackupError, match="not empty"):
        restore(tmp_path / "b.db", db_url)
    with pytest.raises(BackupError, match="sqlite backup"):
        restore(tmp_path / "b.db", postgres_url)
    (tmp_path / "junk").write_bytes(b"hello")
    with pytest.raises(BackupError, match="not a codecrack backup"):
        restore(tmp_path / "junk", f"sqlite:///{tmp_path}/new.db")


def last_table_restored(dump) -> str:
    """The name of the table ``pg_restore`` creates last from the archive ``dump``."""
    listing = subprocess.run([pg_tool("pg_restore"), "--list", str(dump)], capture_output=True, text=True, timeout=60)
    return [line.split()[5] for line in listing.stdout.splitlines() if " TABLE public " in line][-1]


def connect(url: str) -> psycopg.Connection:
    return psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))


def test_a_hung_dump_or_restore_is_stopped_at_its_time_limit_and_keeps_nothing(tmp_path, postgres, postgres_url):
    """pg_dump waiting on a table another session holds locked, and pg_restore waiting behind another
    session's uncommitted table of the same name, wait for ever; each is stopped at its time limit
    with a clear error: no partial dump is left, and the database to restore into stays empty (one
    transaction, though pg_restore had made every other table). Both work once the lock is gone."""
    engine = make_engine(postgres_url)
    upgrade(engine)
    engine.dispose()
    out = tmp_path / "b.dump"
    with connect(postgres_url) as locker:
        locker.execute("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(BackupError, match=r"pg_dump did not finish within 2 s and was stopped"):
            backup(postgres_url, out, seconds=2)
        assert not out.exists()
        locker.rollback()
    backup(postgres_url, out)
    fresh = postgres.new_database()
    with connect(fresh) as rival:
        rival.execute(f'CREATE TABLE "{last_table_restored(out)}" ()')  # not committed: pg_restore's waits for it
        with pytest.raises(BackupError, match=r"pg_restore did not finish within 2 s and was stopped"):
            restore(out, fresh, seconds=2)
        rival.rollback()
        rival.autocommit = True  # pg_stat_activity is read afresh only outside a transaction
        backends = (
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        wait_until(lambda: rival.execute(backends).fetchone()[0] == 0, "the stopped pg_restore's session ends")
    restored = make_engine(fresh)
    try:
        assert inspect(restored).get_table_names() == []
        restore(out, fresh)
        assert check_records(restored).problems == []
    finally:
        restored.dispose()

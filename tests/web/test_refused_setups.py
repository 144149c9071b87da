"""Set-ups that would silently split the state are refused at start-up with a clear message
(issue 11): a second process on one SQLite file (another `codecrack serve`, or `--workers`), and
a second instance on one PostgreSQL database unless every instance has Redis."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from codecrack.loadtest.target import codecrack_server
from codecrack.web.instances import StartRefused, hold_instance

from ..services import free_port

NEEDS_REDIS = "several instances need Redis"


def serve(db: str, *more: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "codecrack", "serve", "--host", "127.0.0.1", "--port", "0", "--db", db, *more]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def refused(done: subprocess.CompletedProcess, *words: str) -> bool:
    output = done.stdout + done.stderr
    return done.returncode != 0 and all(word in output for word in words)


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path):
    db = f"sqlite:///{tmp_path}/shared.db"
    with codecrack_server(db):
        second = serve(db)
    assert refused(second, "another codecrack server already serves", "SQLite serves one server process", "PostgreSQL")


def test_several_workers_on_sqlite_are_refused(tmp_path):
    assert refused(serve(f"sqlite:///{tmp_path}/web.db", "--workers", "2"), "SQLite serves one server process")


def test_uvicorn_workers_on_sqlite_stop_at_start_up(tmp_path):
    """``uvicorn --workers 2`` with the app factory: the second worker cannot take the SQLite lock,
    so uvicorn stops them all instead of serving a split state."""
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "codecrack.web.app:create_app",
        "--workers",
        "2",
        "--host",
        "127.0.0.1",
        "--port",
        str(free_port()),
    ]
    environ = {**os.environ, "CODECRACK_DB": f"sqlite:///{tmp_path}/web.db"}
    server = subprocess.Popen(
        command, env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    try:
        output, _ = server.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)  # the workers too: they hold the output pipe open
        output, _ = server.communicate()
        pytest.fail(f"uvicorn --workers 2 on one SQLite file kept running:\n{output[-2000:]}")
    assert "SQLite serves one server process" in output
    assert "failed to start, stopping the parent process" in output


def test_a_second_instance_without_redis_on_one_postgresql_is_refused(postgres_url):
    with codecrack_server(postgres_url):
        second = serve(postgres_url)
    assert refused(second, "another codecrack instance already serves", NEEDS_REDIS, "--redis")


def test_an_instance_with_redis_beside_one_without_is_refused(postgres_url):
    with codecrack_server(postgres_url):
        second = serve(postgres_url, "--redis", "redis://127.0.0.1:1")
    assert refused(second, "a codecrack instance without Redis already serves", "--redis")


def test_instances_with_redis_share_the_database_and_one_without_is_refused(postgres_url):
    first = hold_instance(postgres_url, redis_url="redis://a")
    second = hold_instance(postgres_url, redis_url="redis://b")
    try:
        with pytest.raises(StartRefused, match=NEEDS_REDIS):
            hold_instance(postgres_url, redis_url=None)
    finally:
        first.close()
        second.close()
    hold_instance(postgres_url, redis_url=None).close()  # alone now: allowed


def test_a_closed_instance_lock_is_free_at_once_even_when_its_session_ends_late(postgres_url):
    """Ending a session frees its advisory locks only once its server process has exited, which
    on a busy machine may come after ``close()`` returned: an instance started right then was
    refused (this file's test above failed so, now and then, under load). The holder unlocks
    before it closes. Here its server process is stopped for a while, as a late one would be."""
    holder = hold_instance(postgres_url, redis_url="redis://a")
    backend = lock_holder_process(postgres_url)
    os.kill(backend, signal.SIGSTOP)
    resume = threading.Timer(2.0, os.kill, (backend, signal.SIGCONT))
    resume.start()
    try:
        holder.close()
        hold_instance(postgres_url, redis_url=None).close()
    finally:
        resume.cancel()
        with contextlib.suppress(ProcessLookupError):  # it has ended by now, unless the test failed
            os.kill(backend, signal.SIGCONT)


def lock_holder_process(db_url: str) -> int:
    """The server process of the one session that holds an advisory lock on the database."""
    engine = create_engine(db_url, poolclass=NullPool)
    try:
        with engine.connect() as db:
            return db.execute(
                text(
                    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND database = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database())"
                )
            ).scalar_one()
    finally:
        engine.dispose()


def test_several_workers_on_postgresql_without_redis_are_refused(postgres_url):
    assert refused(serve(postgres_url, "--workers", "2"), "several workers need Redis")

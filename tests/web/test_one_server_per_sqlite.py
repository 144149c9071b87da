"""SQLite serves one server process: a second `codecrack serve` on the same file is refused at
start-up with a clear message (two processes would silently split the state: issue 11)."""

from __future__ import annotations

import subprocess
import sys

from codecrack.loadtest.target import codecrack_server


def serve(db: str, port: str = "0") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "codecrack", "serve", "--host", "127.0.0.1", "--port", port, "--db", db]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path):
    db = f"sqlite:///{tmp_path}/shared.db"
    with codecrack_server(db):
        second = serve(db)
    assert second.returncode != 0
    assert "another codecrack server already serves" in second.stdout + second.stderr
    assert "PostgreSQL" in second.stdout + second.stderr

"""Real services for the tests, run from Debian's packages in a temporary folder on a free loopback
port: never mocked, never the machine's own instance. ``make test`` installs the packages.

When the tests run as root, a service runs as its unprivileged system user (PostgreSQL refuses
to run as root); otherwise as the current user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def as_user(user: str, command: list[str]) -> list[str]:
    """``command`` run as ``user`` when we are root, else as ourselves."""
    return ["runuser", "-u", user, "--", *command] if os.geteuid() == 0 else command


def service_folder(user: str, prefix: str) -> Path:
    """A fresh temporary folder that ``user`` (when we are root) owns."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        shutil.chown(folder, user, user)
    return folder


def bounded(command: list[str], timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(command, capture_output=True, text=True, timeout=timeout)`` in a process
    group of its own, the whole group killed past ``timeout`` (then :class:`subprocess.TimeoutExpired`
    with what it printed): ``subprocess.run`` kills only its direct child, and its children go on
    running (holding their locks, or the output pipes)."""
    with subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            try:
                stdout, stderr = process.communicate(timeout=10)
            except subprocess.TimeoutExpired:  # a process that left the group holds the pipes
                stdout, stderr = "", ""
            raise subprocess.TimeoutExpired(command, timeout, stdout, stderr) from None
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def run(command: list[str], timeout: float = 120) -> None:
    """Run a service's tool; on failure, raise with its output."""
    done = bounded(command, timeout)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")


def postgres_bin() -> Path:
    """The newest PostgreSQL's programs from Debian's ``postgresql`` package."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(Path(path).parts[-3]))
    if not found:
        raise RuntimeError(
            "PostgreSQL is not installed: `make test` installs Debian's postgresql (or run: apt-get install postgresql)"
        )
    return Path(found[-1]).parent


class PostgresServer:
    """A throw-away PostgreSQL cluster (``initdb``) on a free loopback port, trusting local
    connections. :meth:`stop` and :meth:`start` restart it on the same port with the same data.
    Durability is off (``fsync``): a clean stop still keeps every commit."""

    USER = "postgres"
    SETTINGS = {
        "listen_addresses": "127.0.0.1",
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "shared_buffers": "32MB",
        "max_connections": "200",
    }

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.folder = service_folder(self.USER, "codecrack-pg-")
        self.data = self.folder / "data"
        self.port = free_port()
        self.databases = 0
        run(
            as_user(
                self.USER,
                [
                    str(self.bin / "initdb"),
                    "-D",
                    str(self.data),
                    "-U",
                    self.USER,
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--no-sync",
                ],
            )
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{self.USER}@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = " ".join(f"-c {name}={value}" for name, value in self.SETTINGS.items())
        run(
            as_user(
                self.USER,
                [
                    str(self.bin / "pg_ctl"),
                    "-D",
                    str(self.data),
                    "-l",
                    str(self.folder / "log"),
                    "-w",
                    "-o",
                    f"-p {self.port} -k {self.folder} {options}",
                    "start",
                ],
            )
        )

    def stop(self) -> None:
        run(as_user(self.USER, [str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-m", "fast", "stop"]))

    def running(self) -> bool:
        status = subprocess.run(
            as_user(self.USER, [str(self.bin / "pg_ctl"), "-D", str(self.data), "status"]), capture_output=True
        )
        return status.returncode == 0

    def new_database(self) -> str:
        """The URL of a new, empty database of its own."""
        self.databases += 1
        name = f"test_{self.databases}"
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=self.USER, dbname="postgres", autocommit=True
        ) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def close(self) -> None:
        if self.running():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

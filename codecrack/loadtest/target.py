"""The server under load: a loopback-only URL, optionally a server the harness starts itself,
and its CPU time and memory read from ``/proc``."""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

# Limits given to a spawned server, so that the harness measures the server, not its guards.
SPAWNED_LIMITS = {
    "CODECRACK_TABLES_PER_MINUTE": "1000000",
    "CODECRACK_CONNECTIONS_PER_ADDRESS": "1000000",
    "CODECRACK_HTTP_CONNECTIONS_PER_ADDRESS": "1000000",
    "CODECRACK_MESSAGES_PER_SECOND": "1000000",
    "CODECRACK_MESSAGE_BURST": "1000000",
}


class TargetError(ValueError):
    """A URL the harness will not load, or a server that did not start."""


def require_loopback(url: str) -> None:
    """Refuse any URL whose host is not a loopback address.

    >>> require_loopback("http://127.0.0.1:8000")
    >>> require_loopback("http://localhost:8000")
    >>> require_loopback("http://10.1.2.3:8000")
    Traceback (most recent call last):
    ...
    codecrack.loadtest.target.TargetError: http://10.1.2.3:8000 is not a loopback address; pass --allow-remote to load it anyway
    """
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise TargetError(f"{url} is not a loopback address; pass --allow-remote to load it anyway")


def websocket_base(url: str) -> str:
    """``http://host:port`` -> ``ws://host:port`` (``https`` -> ``wss``).

    >>> websocket_base("http://127.0.0.1:8000/")
    'ws://127.0.0.1:8000'
    """
    parts = urlsplit(url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}"


@dataclass
class ProcessSample:
    """CPU seconds (user + system) and resident memory of one process at one moment."""

    cpu_seconds: float
    rss_bytes: int


def sample_process(pid: int) -> ProcessSample:
    """Read ``/proc/<pid>`` (Linux only)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime and stime: fields 14 and 15 of stat
    rss_pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return ProcessSample(cpu, rss_pages * os.sysconf("SC_PAGE_SIZE"))


def machine_cpu_seconds() -> float:
    """The CPU seconds every core of the machine has spent busy since boot, from ``/proc/stat``
    (Linux only): user, nice, system, interrupts and steal, not idle or waiting for I/O."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, Path("/proc/stat").read_text().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_up(url: str, process: subprocess.Popen, log: Path, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise TargetError(f"the server exited at start-up:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise TargetError(f"the server did not answer within {seconds:.0f} s:\n{log.read_text()[-2000:]}")


class ServerProcess:
    """A server started on a free loopback port (or ``port``), its log and scratch files in a
    temporary folder. ``command(port, folder)`` builds its command line; ``probe`` is the path that
    answers once it is up. A context manager: the server is stopped (and the folder removed) on exit."""

    def __init__(
        self,
        command: Callable[[int, Path], list[str]],
        probe: str,
        environ: Callable[[Path], dict[str, str]],
        cwd: Path | None = None,
        port: int | None = None,
    ) -> None:
        self.command, self.probe, self.environ, self.cwd, self.port = command, probe, environ, cwd, port
        self.url = ""
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> ServerProcess:
        self._folder = tempfile.TemporaryDirectory(prefix="codecrack-load-")
        folder = Path(self._folder.name)
        port = self.port or _free_port()
        self.url = f"http://127.0.0.1:{port}"
        log = folder / "server.log"
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                self.command(port, folder),
                env={**os.environ, **self.environ(folder)},
                cwd=self.cwd,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            _wait_until_up(self.url + self.probe, self.process, log)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("the server is not started: enter the context first")
        return self.process.pid

    def kill(self) -> None:
        """End the server at once with SIGKILL, as a crash would, and reap it."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()

    def __exit__(self, *exc: object) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._folder.cleanup()


SERVE = ("codecrack", "serve")


def codecrack_server(
    db: str | None = None, launcher: tuple[str, ...] = SERVE, port: int | None = None, **settings: str
) -> ServerProcess:
    """``codecrack serve`` (on ``port`` if given), records in the temporary folder unless ``db`` is given, limits raised;
    ``settings`` are more ``CODECRACK_*`` environment variables. ``launcher`` is the module (and
    its arguments) that ``python -m`` runs, taking ``--host``, ``--port`` and ``--db`` as ``serve`` does."""

    def command(port: int, folder: Path) -> list[str]:
        db_args = ["--db", db] if db else []
        return [sys.executable, "-m", *launcher, "--host", "127.0.0.1", "--port", str(port), *db_args]

    return ServerProcess(
        command, "/api/games", lambda folder: {"CODECRACK_DATA": str(folder), **SPAWNED_LIMITS, **settings}, port=port
    )

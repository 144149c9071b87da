"""Redis and nginx for the cluster tests, from Debian's packages (``make test`` installs them), each
in a temporary folder on a free loopback port; and codecrack instances as real processes."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from string import Template

import redis

from codecrack.loadtest.target import ServerProcess, codecrack_server

from ..services import free_port

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
GUARD = 60.0  # seconds a test waits for anything at most (a hang guard, no timing claim)


def wait_until(ready, what: str, seconds: float = GUARD) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {seconds:.0f} s")
        time.sleep(0.05)


def binary(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if not found:
        raise RuntimeError(f"{name} is not installed: `make test` installs it (apt-get install redis-server nginx)")
    return found


class RedisServer:
    """A Redis without persistence: :meth:`restart` loses every key, as a real restart without a
    dump would (the leases and presence entries with it)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="codecrack-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [
            binary("redis-server"),
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.folder),
            "--logfile",
            str(self.folder / "log"),
        ]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait_until(self.answers, "redis-server answers")
        # another test process's Redis may hold the port (free_port raced): then ours exited, and that one answered
        assert self.process.poll() is None, f"redis-server could not listen on port {self.port}"

    def answers(self) -> bool:
        try:
            return redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
        except redis.ConnectionError:
            return False

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def restart(self) -> None:
        self.kill()
        self.start()

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port)

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def nginx_config(listen: str, upstream_ports: list[int], prefix: Path) -> str:
    """``deploy/nginx.conf`` for these instances, as scripts/cluster fills it in."""
    servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=2s;" for port in upstream_ports)
    template = Template((DEPLOY / "nginx.conf").read_text())
    return template.safe_substitute(LISTEN=listen, UPSTREAM_SERVERS=servers, PREFIX=str(prefix))


class NginxServer:
    """nginx with ``deploy/nginx.conf`` in front of the instances on ``upstream_ports``."""

    def __init__(self, upstream_ports: list[int]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="codecrack-nginx-"))
        self.folder.chmod(0o755)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        (self.folder / "nginx.conf").write_text(nginx_config(f"127.0.0.1:{self.port}", upstream_ports, self.folder))
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> NginxServer:
        command = [binary("nginx"), "-c", str(self.folder / "nginx.conf"), "-p", str(self.folder), "-g", "daemon off;"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait_until(lambda: (self.folder / "nginx.pid").exists() or self.process.poll() is not None, "nginx starts")
        if self.process.poll() is not None:
            raise RuntimeError(f"nginx did not start:\n{(self.folder / 'error.log').read_text()}")
        return self

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.wait(timeout=GUARD)
        shutil.rmtree(self.folder, ignore_errors=True)


def instance(db_url: str, redis_url: str, name: str, port: int | None = None, **settings: str) -> ServerProcess:
    """``codecrack serve --db db_url`` with Redis, named ``name`` (on ``port`` if given), bots
    without pauses (unless ``settings`` say otherwise), leases of one second, behind nginx on this host (its forwarded client
    addresses believed)."""
    defaults = {
        "CODECRACK_LEASE_SECONDS": "1",
        "CODECRACK_AI_PACE": "0",
        "CODECRACK_TABLE_INFO_INTERVAL": "0",
        "CODECRACK_TRUSTED_PROXIES": "127.0.0.1",
    }
    return codecrack_server(
        db_url, port=port, CODECRACK_REDIS_URL=redis_url, CODECRACK_INSTANCE_NAME=name, **{**defaults, **settings}
    )

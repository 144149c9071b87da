"""A real Prometheus from Debian's package (``make test`` installs it), scraping given targets every
second, in a temporary folder on a free loopback port."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import httpx

from ..cluster.services import binary, wait_until
from ..services import free_port


class PrometheusServer:
    def __init__(self, targets: list[str]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="codecrack-prometheus-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        listed = ", ".join(f"'{target}'" for target in targets)
        (self.folder / "prometheus.yml").write_text(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
            f"scrape_configs:\n  - job_name: codecrack\n    static_configs:\n      - targets: [{listed}]\n"
        )
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> PrometheusServer:
        command = [
            binary("prometheus"),
            f"--config.file={self.folder / 'prometheus.yml'}",
            f"--storage.tsdb.path={self.folder / 'data'}",
            f"--web.listen-address=127.0.0.1:{self.port}",
        ]
        log = (self.folder / "log").open("wb")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_until(self.ready, "prometheus answers")
        return self

    def ready(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"prometheus exited:\n{(self.folder / 'log').read_text()[-2000:]}")
        try:
            return httpx.get(f"{self.url}/-/ready", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def query(self, expression: str) -> list[dict]:
        """The result of an instant query (a vector: each element's ``metric`` and ``value``)."""
        answer = httpx.get(f"{self.url}/api/v1/query", params={"query": expression}, timeout=10).json()
        assert answer["status"] == "success", answer
        return answer["data"]["result"]

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)

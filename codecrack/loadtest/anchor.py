"""The anchor: boardgame.io measured with the same load pattern, in the same run.

The game, its server and the load driver live in ``loadtest/boardgameio/`` of the repository
(node; ``npm ci`` there first). The driver plays through boardgame.io's own socket.io client, so
the harness does not reimplement that protocol; it prints its latencies and game ends as JSON, and
this module turns them into the same step report as codecrack's.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from .players import Tally
from .report import ServerWatch, step_report, summary
from .target import ServerProcess, TargetError

BOARDGAMEIO_VERSION = "0.50.2"


def _check(folder: Path) -> None:
    installed = folder / "node_modules" / "boardgame.io" / "package.json"
    if not installed.is_file():
        raise TargetError(f"boardgame.io is not installed in {folder}: run `npm ci` there first")
    version = json.loads(installed.read_text())["version"]
    if version != BOARDGAMEIO_VERSION:
        raise TargetError(f"{folder} has boardgame.io {version}, not {BOARDGAMEIO_VERSION}: run `npm ci` there")


def boardgameio_server(folder: Path) -> ServerProcess:
    return ServerProcess(
        lambda port, scratch: ["node", "server.js", str(port)],
        "/games",
        lambda scratch: {"NODE_ENV": "production"},
        cwd=folder,
    )


async def _step(
    folder: Path, url: str, pid: int, tables: int, seconds: float, games: int, pause: tuple[float, float], seed: int
) -> dict[str, Any]:
    watch = ServerWatch(pid)
    follower = asyncio.create_task(watch.follow())
    began = time.monotonic()
    driver = await asyncio.create_subprocess_exec(
        "node",
        "driver.js",
        url,
        str(tables),
        str(seconds),
        str(games),
        str(pause[0]),
        str(pause[1]),
        str(seed),
        cwd=folder,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await driver.communicate()
    elapsed = time.monotonic() - began
    follower.cancel()
    if driver.returncode != 0:
        raise TargetError(f"the boardgame.io driver failed: {err.decode()[-2000:]}")
    found = json.loads(out)
    tally = Tally(found["latencies"], found["errors"], found["valid"], found["invalid"], found["cut"])
    return step_report(tables, 2 * tables, elapsed, tally, watch)


def run_anchor(
    folder: Path, tables: list[int], seconds: float, games: int, pause: tuple[float, float], seed: int
) -> dict[str, Any]:
    """Every step against a boardgame.io server of our own on a free loopback port."""
    _check(folder)
    with boardgameio_server(folder) as server:
        steps = [asyncio.run(_step(folder, server.url, server.pid, n, seconds, games, pause, seed)) for n in tables]
    return {
        "target": f"boardgame.io {BOARDGAMEIO_VERSION}",
        "url": server.url,
        "steps": steps,
        "summary": summary(steps),
    }

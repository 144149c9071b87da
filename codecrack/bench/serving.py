"""Load benchmarks against a real server: a ``codecrack serve`` process on loopback, driven by
real websockets. Not tests: they report figures (docs/benchmarks.md).

- ``codecrack bench soak --games N``: N short games (The Coding, one-shot, a client seat against
  the random AI), a few at a time; reports the server's RSS along the way (and, with
  ``-o probe=1``, where its memory is: :mod:`codecrack.bench.memory_probe`).
- ``codecrack bench crash --games K``: K rounds of ``kill -9`` while several clients play; after
  each restart, counts the acknowledged actions (those whose new state reached a client) missing
  from the stored records.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from ..core.registry import replay
from ..loadtest.target import SERVE, ServerProcess, codecrack_server, sample_process, websocket_base
from ..protocol.deltas import followed
from ..web.store import Store, make_engine

SHORT_GAME = {
    "game": "coding",
    "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}],
    "sit": 0,
    "options": {"mode": "one-shot"},
}
PROBED = ("codecrack.bench.memory_probe",)  # the server with GET /probe/memory (soak -o probe=1)
NO_PAUSE = "0"  # CODECRACK_AI_PACE: bots answer at once, the benchmarks measure the server


def scratch() -> str | None:
    """Where the benchmark's database goes: memory-backed /dev/shm when there is one, since these
    benchmarks measure the server, not the disk (a kill -9 keeps what the kernel was given)."""
    return "/dev/shm" if Path("/dev/shm").is_dir() else None


def rss_mb(pid: int) -> float:
    return round(sample_process(pid).rss_bytes / 2**20, 1)


def http(method: str, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


async def play_game(url: str, rng: random.Random, acknowledged: dict[str, int] | None = None) -> str:
    """Create a short game, play its client seat with random legal actions to the end (or until
    the server goes away), and fetch the finished table. ``acknowledged[code]`` follows the
    latest step whose state arrived."""
    made = await asyncio.to_thread(http, "POST", f"{url}/api/tables", SHORT_GAME)
    code, acted, step, view = made["code"], -1, -1, None
    async with connect(f"{websocket_base(url)}/ws/{code}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        async for text in ws:
            message = json.loads(text)
            if message["type"] == "table" and message["table"]["over"]:
                break
            if message["type"] not in ("state", "delta"):
                continue
            step, view = followed(view, step, message)
            if acknowledged is not None:
                acknowledged[code] = step
            legal = view["legal_actions"]
            if legal and acted != step:
                acted = step
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
    await asyncio.to_thread(http, "GET", f"{url}/api/tables/{code}")
    return code


async def play_many(url: str, games: int, workers: int, seed: int, on_done) -> None:
    """``games`` games, ``workers`` at a time; ``on_done(count)`` after each one."""
    done = 0
    remaining = iter(range(games))

    async def worker(index: int) -> None:
        nonlocal done
        rng = random.Random(seed * 1000 + index)
        for _ in remaining:
            await play_game(url, rng)
            done += 1
            on_done(done)

    await asyncio.gather(*(worker(index) for index in range(workers)))


def soak_benchmark(games: int = 10_000, seed: int = 0, workers: int = 4, probe: int = 0) -> dict[str, Any]:
    """Play ``games`` short games through a real server and sample its RSS after every tenth of
    them (1k, 2k, ... 10k for the default count). With ``probe`` the server is ``codecrack serve``'s
    app with a memory probe (:mod:`codecrack.bench.memory_probe`), read at the start, at the same
    moments, and at the end after ``malloc_trim`` (``"trimmed"``)."""
    checkpoints = sorted({max(1, games * tenth // 10) for tenth in range(1, 11)})
    samples: dict[int, float] = {}
    probed: dict[str, dict[str, Any]] = {}
    launcher = PROBED if int(probe) else SERVE
    with tempfile.TemporaryDirectory(dir=scratch()) as folder:
        with codecrack_server(f"sqlite:///{folder}/soak.db", launcher, CODECRACK_AI_PACE=NO_PAUSE) as server:
            started_rss, started = rss_mb(server.pid), time.perf_counter()
            if launcher is PROBED:
                probed["start"] = http("GET", f"{server.url}/probe/memory")

            def sample(count: int) -> None:
                if count in checkpoints:
                    samples[count] = rss_mb(server.pid)
                    if launcher is PROBED:
                        probed[str(count)] = http("GET", f"{server.url}/probe/memory")

            asyncio.run(play_many(server.url, games, int(workers), seed, sample))
            elapsed = time.perf_counter() - started
            if launcher is PROBED:
                probed["trimmed"] = http("GET", f"{server.url}/probe/memory?trim=true")
    report = {
        "benchmark": "soak",
        "games": games,
        "workers": workers,
        "rss_mb_at_start": started_rss,
        "rss_mb": {str(count): samples[count] for count in checkpoints},
        "games_per_s": round(games / elapsed, 2),
    }
    return {**report, "probe": probed} if probed else report


def crash_benchmark(games: int = 3, seed: int = 0, workers: int = 8, actions: int = 300) -> dict[str, Any]:
    """``games`` rounds: ``workers`` clients play short games until about ``actions`` actions are
    acknowledged, then the server gets ``kill -9``; a fresh server on the same database then must
    hold every acknowledged action, and every stored record must replay."""
    rounds = []
    with tempfile.TemporaryDirectory(dir=scratch()) as folder:
        db_url = f"sqlite:///{folder}/crash.db"
        for index in range(games):
            acknowledged: dict[str, int] = {}
            with codecrack_server(db_url, CODECRACK_AI_PACE=NO_PAUSE) as server:
                asyncio.run(load_until(server, acknowledged, int(workers), seed + index, int(actions)))
            with codecrack_server(db_url, CODECRACK_AI_PACE=NO_PAUSE):  # restarts, migrates and restores like any start
                rounds.append(check_stored(db_url, acknowledged))
    lost = sum(r["lost"] for r in rounds)
    return {
        "benchmark": "crash",
        "rounds": rounds,
        "acknowledged": sum(r["acknowledged"] for r in rounds),
        "lost": lost,
        "unreplayable": sum(r["unreplayable"] for r in rounds),
    }


async def load_until(
    server: ServerProcess, acknowledged: dict[str, int], workers: int, seed: int, actions: int
) -> None:
    """Play games with ``workers`` clients until ``actions`` actions are acknowledged in all,
    then kill the server with SIGKILL while every client is mid-game."""

    async def worker(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        while sum(acknowledged.values()) < actions:
            await play_game(server.url, rng, acknowledged)

    tasks = [asyncio.create_task(worker(index)) for index in range(workers)]
    while sum(acknowledged.values()) < actions:
        await asyncio.sleep(0.01)
    server.kill()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def check_stored(db_url: str, acknowledged: dict[str, int]) -> dict[str, int]:
    store = Store(make_engine(db_url))
    lost = unreplayable = 0
    for code, step in acknowledged.items():
        row, moves = store.table(code), store.moves(code)
        lost += max(0, step - len(moves))
        try:
            if row is None:
                raise LookupError(f"table {code} is not stored")
            replay(row.record(moves))
        except Exception:
            unreplayable += 1
    store.engine.dispose()
    return {
        "tables": len(acknowledged),
        "acknowledged": sum(acknowledged.values()),
        "lost": lost,
        "unreplayable": unreplayable,
    }


BENCHMARKS = {"soak": soak_benchmark, "crash": crash_benchmark}

"""``codecrack bench idle-sockets``: what seated websockets that said hello and then sit idle cost a
server (issue 29 §8; figures in docs/benchmarks.md, "Idle sockets").

A probed ``codecrack serve`` (:mod:`codecrack.bench.memory_probe`) on SQLite gets ``sockets / 2``
Coda tables of two human seats, both claimed; then ``clients`` client processes open one websocket
per seat, say hello, wait for the seat's state and stay silent (they answer the server's keepalive
pings, as a browser does). Once every socket has its state and ``settle`` seconds have passed, the
server's CPU is read over ``seconds`` and its memory once more. Reported: the server's CPU (% of a
core), its RSS and Python's blocks before the sockets (tables made, none loaded) and with them,
their difference per socket (its half of a loaded table included), and the server's open file
descriptors. With ``trace=1`` the server starts ``tracemalloc`` before the sockets come (slower,
and its RSS is not the plain server's): the report gives what the sockets added that Python
allocated, per socket, and the files and source lines that hold the most of it. ``ws`` names the
websocket protocol: ``codecrack`` (``codecrack serve``'s) or one of uvicorn's own
(``websockets``, ``websockets-sansio``, ``wsproto``), to compare them.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from ..loadtest.players import TablePlan, open_table
from ..loadtest.target import codecrack_server, sample_process, websocket_base
from .serving import PROBED, scratch

GREETING_SECONDS = 120.0  # a socket's wait for its state once it said hello
CLIENT_SECONDS = 3600.0  # a client process never outlives this, whatever happens to its parent
PROBE_SECONDS = 600.0  # a tracemalloc snapshot of thousands of sockets takes minutes on a busy machine
OPENING_AT_ONCE = 64  # handshakes in flight per client process (the server's listen backlog is finite)


async def open_tables(url: str, tables: int) -> list[tuple[str, str]]:
    """``tables`` tables, every human seat claimed: one (code, token) per seat."""
    gate = asyncio.Semaphore(16)

    async def one(_: int) -> list[tuple[str, str]]:
        async with gate:
            code, tokens = await open_table(url, TablePlan())
        return [(code, token) for token in tokens]

    return [seat for seats in await asyncio.gather(*(one(i) for i in range(tables))) for seat in seats]


async def sit_idle(url: str, seats: list[tuple[str, str]]) -> None:
    """Open a websocket per seat, say hello, wait for its state, print ``ready``, then keep every
    socket open (reading what comes) until standard input closes."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    ready = asyncio.Event()
    greeted = 0

    async def seat(code: str, token: str) -> None:
        nonlocal greeted
        async with gate:
            ws = await connect(f"{websocket_base(url)}/ws/{code}", max_size=2**24, open_timeout=60, ping_interval=None)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            async with asyncio.timeout(GREETING_SECONDS):
                while json.loads(await ws.recv())["type"] != "state":
                    pass
        greeted += 1
        if greeted == len(seats):
            ready.set()
        async with ws:
            async for _ in ws:  # table infos, if any; the pings are answered underneath
                pass

    tasks = [asyncio.create_task(seat(code, token)) for code, token in seats]
    waiting = asyncio.create_task(ready.wait())
    done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if waiting not in done:  # a socket failed, or was closed, before every seat had its state
        failed = done.pop()
        raise failed.exception() or RuntimeError("the server closed a socket before every seat had its state")
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.read)  # the parent closes it when done
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def probe(url: str, path: str = "/probe/memory") -> dict[str, Any]:
    request = urllib.request.Request(f"{url}{path}")
    with urllib.request.urlopen(request, timeout=PROBE_SECONDS) as response:
        return json.loads(response.read())


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def idle_benchmark(
    sockets: int = 1000,
    seconds: float = 30,
    settle: float = 10,
    clients: int = 2,
    trace: int = 0,
    ws: str = "codecrack",
) -> dict[str, Any]:
    sockets, clients, trace = int(sockets), int(clients), int(trace)
    seconds, settle = float(seconds), float(settle)
    with tempfile.TemporaryDirectory(dir=scratch()) as folder:
        with codecrack_server(f"sqlite:///{folder}/idle.db", (*PROBED, "--ws", ws), CODECRACK_AI_PACE="0") as server:
            seats = asyncio.run(open_tables(server.url, sockets // 2))
            before = probe(server.url)
            if trace:
                probe(server.url, "/probe/trace?start=true")
            started = time.monotonic()
            processes = []
            for index in range(clients):
                share = Path(folder) / f"seats-{index}.json"
                share.write_text(json.dumps(seats[index::clients]))
                processes.append(
                    subprocess.Popen(
                        [sys.executable, "-m", __name__, server.url, str(share)],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                )
            try:
                for process in processes:
                    assert process.stdout is not None and process.stdin is not None  # both are pipes
                    line = process.stdout.readline()  # bounded: each socket waits GREETING_SECONDS at most
                    if line.strip() != "ready":
                        raise RuntimeError(f"a client process stopped before its sockets were seated: {line!r}")
                opened = time.monotonic() - started
                time.sleep(settle)
                first = sample_process(server.pid)
                time.sleep(seconds)
                last = sample_process(server.pid)
                files = open_files(server.pid)
                after = probe(server.url)
                traced = probe(server.url, "/probe/trace") if trace else None
            finally:
                for process in processes:
                    if process.stdin:
                        process.stdin.close()
                for process in processes:
                    try:
                        process.wait(timeout=60)
                    except subprocess.TimeoutExpired:
                        process.kill()
                        process.wait()
    seated = len(seats)
    report = {
        "benchmark": "idle-sockets",
        "sockets": seated,
        "tables": seated // 2,
        "opened_in_s": round(opened, 1),
        "idle_cpu_percent": round(100 * (last.cpu_seconds - first.cpu_seconds) / seconds, 2),
        "seconds": seconds,
        "rss_mb": {"before": before["rss_mb"], "with_sockets": after["rss_mb"]},
        "kb_per_socket": round((after["rss_mb"] - before["rss_mb"]) * 1024 / seated, 1),
        "python_blocks_per_socket": round((after["python_blocks"] - before["python_blocks"]) / seated, 1),
        "live_tables": after["live_tables"],
        "open_files": files,
        "traced": trace == 1,
        "ws": ws,
    }
    if traced is None:
        return report
    return {**report, "traced_kb_per_socket": round(traced["total_kb"] / seated, 1), "top": traced}


BENCHMARKS = {"idle-sockets": idle_benchmark}


if __name__ == "__main__":  # a client process: python -m codecrack.bench.idle URL SEATS_JSON
    asyncio.run(asyncio.wait_for(sit_idle(sys.argv[1], json.loads(Path(sys.argv[2]).read_text())), CLIENT_SECONDS))

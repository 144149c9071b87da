"""The soak benchmark's server with a memory probe: ``codecrack serve``'s app, start and uvicorn settings,
plus ``GET /probe/memory``, which says where the process's memory is. Only the benchmark starts
it (``codecrack bench soak -o probe=1``), on loopback; ``codecrack serve`` has no such route.

The figures (docs/benchmarks.md, "Memory over thousands of games"):

- ``rss_mb``: the resident memory, as the benchmark reads it from ``/proc``;
- ``python_blocks``: the live blocks of Python's small-object allocator (nearly every object),
  after a garbage collection; ``garbage_objects``: the unreachable objects that it freed;
- ``malloc_in_use_mb`` and ``malloc_free_mb``: glibc malloc's live bytes (big objects, SQLite,
  the C libraries) and the freed bytes it keeps for reuse;
- ``sqlite_kb``: SQLite's own allocations (page caches, statements) over every connection;
- ``rss_anon_mb``, ``rss_file_mb`` and ``rss_shmem_mb``: the RSS split by kind (``/proc``'s
  status): the heaps, the mapped files (code, libraries) and shared memory (a file on tmpfs that
  is mapped, such as SQLite's ``-shm`` WAL index when the records are in /dev/shm);
- ``malloc_arenas_mb``: the memory that each of glibc malloc's arenas holds from the system (the
  main one first, then one per thread up to the arena limit);
- ``pymalloc_arenas`` and ``pymalloc_unused_pools``: the 1 MiB arenas of Python's small-object
  allocator and the empty 16 KiB pools in them (kept, and resident once touched);
- ``db_kb``, ``wal_kb`` and ``wal_index_kb``: the sizes of the SQLite database, its WAL and its
  WAL index (the ``-shm`` file), when the records are in SQLite;
- ``live_tables`` and ``idle_tables``: the tables the server keeps loaded, and those of them that
  nobody is connected to (a game its players left mid-way stays loaded, up to ``max_live_tables``
  such tables).

``?trim=1`` first gives malloc's free pages back to the system (``malloc_trim``): the RSS then
left is what the process holds, without malloc's reserve.

``GET /probe/trace?start=true`` starts ``tracemalloc`` (one frame per allocation); ``GET /probe/trace``
then says how much of what was allocated since is still alive, and which files and source lines
hold the most of it (``codecrack bench idle-sockets -o trace=1``).
"""

from __future__ import annotations

import _sqlite3
import argparse
import ctypes
import os
import re
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from sqlalchemy import make_url

from ..web.app import create_app
from ..web.collector import collect_everything
from ..web.config import WebConfig
from ..web.hub import Hub
from ..web.server import run_one, uvicorn_options

MB = 2**20


class MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (glibc 2.33 and later)."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def rss_mb() -> float:
    pages = int(open(f"/proc/{os.getpid()}/statm").read().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / MB, 2)


def rss_split_mb() -> dict[str, float]:
    """``RssAnon``, ``RssFile`` and ``RssShmem`` of ``/proc/self/status``, in MB."""
    kinds = {"RssAnon": "rss_anon_mb", "RssFile": "rss_file_mb", "RssShmem": "rss_shmem_mb"}
    split = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in kinds:
            split[kinds[name]] = round(int(value.split()[0]) / 1024, 2)
    return split


def sqlite_files_kb(db_url: str) -> dict[str, float]:
    """The sizes of a SQLite database's file, WAL and WAL index (none for another database)."""
    url = make_url(db_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return {}
    files = {"db_kb": "", "wal_kb": "-wal", "wal_index_kb": "-shm"}
    sizes = {}
    for name, suffix in files.items():
        path = Path(url.database + suffix)
        sizes[name] = round(path.stat().st_size / 1024, 1) if path.exists() else 0.0
    return sizes


def malloc_arenas_mb(libc: ctypes.CDLL) -> list[float]:
    """Each malloc arena's ``system current`` bytes, from ``malloc_info``'s XML (main arena first)."""
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    with tempfile.NamedTemporaryFile() as report:
        stream = libc.fopen(report.name.encode(), b"w")
        libc.malloc_info(0, stream)
        libc.fclose(stream)
        heaps = re.findall(
            r'<heap nr="\d+">.*?<system type="current" size="(\d+)"/>', Path(report.name).read_text(), re.S
        )
    return [round(int(size) / MB, 2) for size in heaps]


def pymalloc_figures() -> dict[str, int]:
    """The current arenas and unused pools of Python's small-object allocator, read from
    ``sys._debugmallocstats()``, which writes to the C stderr (captured for the moment)."""
    with tempfile.TemporaryFile() as captured:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(captured.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        captured.seek(0)
        stats = captured.read().decode()
    arenas = re.search(r"# arenas allocated current\s*=\s*([\d,]+)", stats)
    pools = re.search(r"([\d,]+) unused pools \*", stats)
    return {
        "pymalloc_arenas": int(arenas.group(1).replace(",", "")) if arenas else 0,
        "pymalloc_unused_pools": int(pools.group(1).replace(",", "")) if pools else 0,
    }


def sqlite_bytes() -> int:
    """``sqlite3_memory_used()`` of the SQLite that Python's driver uses (looked up through the
    driver's module, so it is the same library whether linked statically or not)."""
    memory_used = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used
    memory_used.restype = ctypes.c_int64
    return memory_used()


def glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc with ``mallinfo2`` (else the malloc figures are left out)."""
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "mallinfo2"):
        return None
    libc.mallinfo2.restype = MallInfo2
    return libc


def memory_figures(trim: bool = False, db_url: str = "") -> dict[str, Any]:
    """The figures, once the cyclic garbage is collected (so that they count live data; the
    objects it freed are ``garbage_objects``)."""
    garbage = collect_everything()
    libc = glibc()
    figures: dict[str, Any] = {}
    if libc is not None and trim:
        libc.malloc_trim(0)
    figures["rss_mb"] = rss_mb()
    figures.update(rss_split_mb())
    figures["python_blocks"] = sys.getallocatedblocks()
    figures["garbage_objects"] = garbage
    figures.update(pymalloc_figures())
    if libc is not None:
        heap = libc.mallinfo2()
        figures["malloc_in_use_mb"] = round((heap.uordblks + heap.hblkhd) / MB, 2)
        figures["malloc_free_mb"] = round(heap.fordblks / MB, 2)
        figures["malloc_arenas_mb"] = malloc_arenas_mb(libc)
    figures["sqlite_kb"] = round(sqlite_bytes() / 1024, 1)
    if db_url:
        figures.update(sqlite_files_kb(db_url))
    return figures


def table_figures(hub: Hub) -> dict[str, int]:
    """How many tables the hub keeps loaded, and how many of them nobody is connected to."""
    tables = hub.live.values()
    return {"live_tables": len(tables), "idle_tables": sum(1 for table in tables if not table.connections)}


def grown_lines(top: int = 25) -> dict[str, Any]:
    """What was allocated since ``tracemalloc`` started and is still alive: in all, by file, and the
    ``top`` source lines holding the most."""
    collect_everything()
    ours = tracemalloc.Filter(False, tracemalloc.__file__)
    snapshot = tracemalloc.take_snapshot().filter_traces([ours])

    def listed(group: str) -> list[dict[str, Any]]:
        return [
            {
                "where": f"{Path(stat.traceback[0].filename).name}"
                + (f":{stat.traceback[0].lineno}" if group == "lineno" else ""),
                "kb": round(stat.size / 1024, 1),
                "blocks": stat.count,
            }
            for stat in snapshot.statistics(group)[:top]
        ]

    total = sum(stat.size for stat in snapshot.statistics("filename"))
    return {"total_kb": round(total / 1024, 1), "files": listed("filename"), "lines": listed("lineno")}


def probed_app(config: WebConfig) -> FastAPI:
    app = create_app(config)

    @app.get("/probe/memory", include_in_schema=False)
    async def memory(trim: bool = False) -> dict[str, Any]:
        return {**memory_figures(trim, config.db_url), **table_figures(app.state.hub)}

    @app.get("/probe/trace", include_in_schema=False)
    async def trace(start: bool = False) -> dict[str, Any]:
        if start:
            collect_everything()
            tracemalloc.start()
            return {}
        return grown_lines()

    return app


WEBSOCKET_PROTOCOLS = ("codecrack", "websockets", "websockets-sansio", "wsproto")


def main(argv: list[str] | None = None) -> None:
    """``python -m codecrack.bench.memory_probe --host H --port P --db URL [--ws PROTOCOL]``; the
    other settings come from ``CODECRACK_*`` environment variables, as for ``codecrack serve``.
    ``--ws`` serves websockets with one of uvicorn's own protocols instead of ``codecrack serve``'s
    (to compare them: ``codecrack bench idle-sockets -o ws=wsproto``)."""
    parser = argparse.ArgumentParser(prog="codecrack.bench.memory_probe")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", required=True)
    parser.add_argument("--ws", choices=WEBSOCKET_PROTOCOLS, default="codecrack")
    args = parser.parse_args(argv)
    config = WebConfig(db_url=args.db)
    options = uvicorn_options(config)
    if args.ws != "codecrack":
        options["ws"] = args.ws
    run_one(probed_app(config), host=args.host, port=args.port, **options)


if __name__ == "__main__":
    main()

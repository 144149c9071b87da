"""The soak benchmark's server with a memory probe: ``codecrack serve``'s app and uvicorn settings,
plus ``GET /probe/memory``, which says where the process's memory is. Only the benchmark starts
it (``codecrack bench soak -o probe=1``), on loopback; ``codecrack serve`` has no such route.

The figures (docs/benchmarks.md, "Memory over thousands of games"):

- ``rss_mb``: the resident memory, as the benchmark reads it from ``/proc``;
- ``python_blocks``: the live blocks of Python's small-object allocator (nearly every object),
  after a garbage collection;
- ``malloc_in_use_mb`` and ``malloc_free_mb``: glibc malloc's live bytes (big objects, SQLite,
  the C libraries) and the freed bytes it keeps for reuse;
- ``sqlite_kb``: SQLite's own allocations (page caches, statements) over every connection.

``?trim=1`` first gives malloc's free pages back to the system (``malloc_trim``): the RSS then
left is what the process holds, without malloc's reserve.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import sys
from typing import Any

import _sqlite3
import uvicorn
from fastapi import FastAPI

from .app import create_app
from .config import WebConfig
from .server import uvicorn_options

MB = 2**20


class MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (glibc 2.33 and later)."""

    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def rss_mb() -> float:
    pages = int(open(f"/proc/{os.getpid()}/statm").read().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / MB, 2)


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


def memory_figures(trim: bool = False) -> dict[str, Any]:
    """The figures, once the cyclic garbage is collected (so that they count live data)."""
    gc.collect()
    libc = glibc()
    figures: dict[str, Any] = {}
    if libc is not None and trim:
        libc.malloc_trim(0)
    figures["rss_mb"] = rss_mb()
    figures["python_blocks"] = sys.getallocatedblocks()
    if libc is not None:
        heap = libc.mallinfo2()
        figures["malloc_in_use_mb"] = round((heap.uordblks + heap.hblkhd) / MB, 2)
        figures["malloc_free_mb"] = round(heap.fordblks / MB, 2)
    figures["sqlite_kb"] = round(sqlite_bytes() / 1024, 1)
    return figures


def probed_app(config: WebConfig) -> FastAPI:
    app = create_app(config)

    @app.get("/probe/memory", include_in_schema=False)
    async def memory(trim: bool = False) -> dict[str, Any]:
        return memory_figures(trim)

    return app


def main(argv: list[str] | None = None) -> None:
    """``python -m codecrack.web.memory_probe --host H --port P --db URL``; the other settings come
    from ``CODECRACK_*`` environment variables, as for ``codecrack serve``."""
    parser = argparse.ArgumentParser(prog="codecrack.web.memory_probe")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", required=True)
    args = parser.parse_args(argv)
    config = WebConfig(db_url=args.db)
    uvicorn.run(probed_app(config), host=args.host, port=args.port, **uvicorn_options(config))


if __name__ == "__main__":
    main()

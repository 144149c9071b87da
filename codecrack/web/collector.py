"""The cyclic garbage collector, set up for a server that holds thousands of long-lived tables and
sockets (docs/web-server.md, "Garbage collection"; docs/notes/server-latency.md).

Python's full collections scan every tracked object. A server with thousands of sockets holds
about a million, nearly all of them alive for minutes (games, connections), so each full
collection stalled the event loop while collecting next to nothing (figures in the note above).

:class:`Collector` freezes (``gc.freeze``) what survives each collection, the youngest's too: an
object that lived through a young collection is taken to be long-lived, and no collection scans it
again (a freeze also restarts Python's count towards a full collection, so none comes). The young
collections freed nothing, while those of the middle generation each rescanned what ten of the
youngest had passed on: with everything frozen at once, each scans only what the youngest holds.
Objects that die while frozen are still freed at once by reference counting; only those in
reference cycles wait. So the frozen objects are unfrozen instead, and left so until Python's next
full collection, which then scans the whole heap, as by default, and frees them (what survives it
is frozen again), once the heap (the blocks of Python's small-object allocator in use) has grown
since the last whole collection (or start-up) to

- ``growth`` times its size, if as many websockets have closed since then as are open now
  (:data:`SOCKETS`): what ends is what may leave dead cycles; a heap that grew because more
  sockets opened and their games went on holds live objects, and scanning it frees nothing;
- ``backstop`` times its size, whatever closed: dead cycles of anything else stay bounded.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

YOUNGEST, FULL = 0, 2  # the generations: a full collection is one of the oldest


class Turnover:
    """The websockets opened and closed so far in this process (counted by the app)."""

    def __init__(self) -> None:
        self.opened = 0
        self.closed = 0

    @property
    def open(self) -> int:
        return self.opened - self.closed


SOCKETS = Turnover()  # process-wide, as the garbage collector is


class Collector:
    """Installed once per server process (:meth:`install`), through ``gc.callbacks``."""

    def __init__(self, growth: float = 2.0, backstop: float = 8.0, sockets: Turnover = SOCKETS) -> None:
        self.growth = growth
        self.backstop = backstop
        self.sockets = sockets
        self.settled = 0  # the heap's blocks after the last whole collection (or start-up)
        self.closed = 0  # the sockets closed before the last whole collection (or start-up)
        self.whole = False  # the full collection under way scans everything
        self.thawed = False  # unfrozen, until the next full collection
        self.whole_collections = 0

    def install(self) -> None:
        """Freeze what start-up made (modules, the app) and follow every collection from now on."""
        gc.freeze()
        self.settle()
        gc.callbacks.append(self.on_collection)

    def uninstall(self) -> None:
        gc.callbacks.remove(self.on_collection)

    def settle(self) -> None:
        self.settled, self.closed = sys.getallocatedblocks(), self.sockets.closed

    def on_collection(self, phase: str, info: dict[str, Any]) -> None:
        """Called by the collector at the start and the stop of each collection."""
        generation = info["generation"]
        if phase == "start":
            self.whole = generation == FULL and (self.thawed or gc.get_freeze_count() == 0)
            return
        if self.whole:
            gc.freeze()
            self.settle()
            self.whole, self.thawed = False, False
            self.whole_collections += 1
        elif self.thawed:
            return
        elif generation != YOUNGEST and self.whole_collection_due():  # one collection in ten (see the method)
            gc.unfreeze()  # Python's next full collection scans everything
            self.thawed = True
        else:
            gc.freeze()

    def whole_collection_due(self) -> bool:
        """Whether the heap has grown enough since the last whole collection for dead cycles to
        be worth a scan of everything (see the module's docstring). Asked after the middle
        generation's collections only: on Python 3.11 ``sys.getallocatedblocks`` visits every pool
        of the allocator."""
        heap = sys.getallocatedblocks()
        turned_over = self.sockets.closed - self.closed >= self.sockets.open
        return heap > self.backstop * self.settled or (turned_over and heap > self.growth * self.settled)


def collect_everything() -> int:
    """A whole collection, the frozen objects too; the number of objects it freed. For figures of
    the live memory (``memory_probe.py``), not for a server's every day."""
    gc.unfreeze()
    return gc.collect()

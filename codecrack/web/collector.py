"""The cyclic garbage collector, set up for a server that holds thousands of long-lived tables and
sockets (docs/web.md, "Garbage collection"; docs/benchmarks.md, "Human pace").

Python's full collections scan every tracked object. A server with 2,000 tables and 4,000 sockets
holds about a million, nearly all of them alive for minutes (games, connections), so each full
collection stalled the event loop for 0.4-0.9 s while collecting next to nothing.

:class:`Collector` freezes (``gc.freeze``) what survives each collection of the middle generation:
an object that lived through two young collections is taken to be long-lived, and no collection
scans it again (a freeze also restarts Python's count towards a full collection, so none comes).
Objects that die while frozen are still freed at once by reference counting; only those in
reference cycles wait. So once the heap (the blocks of Python's small-object allocator in use) has
grown to ``growth`` times its size after the last whole collection (or after start-up), the frozen
objects are unfrozen instead, and left so until Python's next full collection, which then scans
the whole heap, as by default, and frees them; what survives it is frozen again. The memory that
dead cycles hold is so bounded by the live heap, at the cost of one whole collection each time
the heap doubles.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

YOUNGEST, FULL = 0, 2  # the generations: a full collection is one of the oldest


class Collector:
    """Installed once per server process (:meth:`install`), through ``gc.callbacks``."""

    def __init__(self, growth: float = 2.0) -> None:
        self.growth = growth
        self.settled = 0  # the heap's blocks after the last whole collection (or start-up)
        self.whole = False  # the full collection under way scans everything
        self.thawed = False  # unfrozen, until the next full collection
        self.whole_collections = 0

    def install(self) -> None:
        """Freeze what start-up made (modules, the app) and follow every collection from now on."""
        gc.freeze()
        self.settled = sys.getallocatedblocks()
        gc.callbacks.append(self.on_collection)

    def uninstall(self) -> None:
        gc.callbacks.remove(self.on_collection)

    def on_collection(self, phase: str, info: dict[str, Any]) -> None:
        """Called by the collector at the start and the stop of each collection."""
        generation = info["generation"]
        if phase == "start":
            self.whole = generation == FULL and (self.thawed or gc.get_freeze_count() == 0)
            return
        if self.whole:
            gc.freeze()
            self.settled, self.whole, self.thawed = sys.getallocatedblocks(), False, False
            self.whole_collections += 1
        elif generation == YOUNGEST or self.thawed:
            return
        elif sys.getallocatedblocks() > self.growth * self.settled:
            gc.unfreeze()  # Python's next full collection scans everything
            self.thawed = True
        else:
            gc.freeze()


def collect_everything() -> int:
    """A whole collection, the frozen objects too; the number of objects it freed. For figures of
    the live memory (``memory_probe.py``), not for a server's every day."""
    gc.unfreeze()
    return gc.collect()

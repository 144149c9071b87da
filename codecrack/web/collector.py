"""The cyclic garbage collector, set up for a server that holds thousands of long-lived tables and
sockets (docs/web.md, "Garbage collection"; docs/benchmarks.md, "Human pace").

Python's full collections scan every tracked object. A server with 2,000 tables and 4,000 sockets
holds about a million, nearly all of them alive for minutes (games, connections), so each full
collection stalled the event loop for 0.4-0.9 s while collecting next to nothing.

:class:`Collector` freezes (``gc.freeze``) what survives each collection of the middle generation
or the oldest: an object that lived through two young collections is taken to be long-lived, and
is not scanned again, so the full collections scan next to nothing. Objects that die while frozen
are still freed at once by reference counting; only those in reference cycles wait, so once the
frozen objects have grown to ``growth`` times what the last whole collection left (or start-up
froze), the next full collection first unfreezes everything and scans the whole heap (which then
frees them), as Python does by default. The memory that dead cycles hold is so bounded by the
live heap, at the cost of one whole collection each time the frozen objects double.
"""

from __future__ import annotations

import gc
from typing import Any

MIDDLE, FULL = 1, 2  # the generations: a full collection is one of the oldest


class Collector:
    """Installed once per server process (:meth:`install`), through ``gc.callbacks``."""

    def __init__(self, growth: float = 2.0) -> None:
        self.growth = growth
        self.settled = 0  # objects frozen after the last whole collection (or at start-up)
        self.whole = False  # the full collection under way scans everything
        self.whole_collections = 0

    def install(self) -> None:
        """Freeze what start-up made (modules, the app) and follow every collection from now on."""
        gc.freeze()
        self.settled = gc.get_freeze_count()
        gc.callbacks.append(self.on_collection)

    def uninstall(self) -> None:
        gc.callbacks.remove(self.on_collection)

    def on_collection(self, phase: str, info: dict[str, Any]) -> None:
        """Called by the collector at the start and the stop of each collection."""
        generation = info["generation"]
        if phase == "start":
            frozen = gc.get_freeze_count()  # 0 after someone's gc.unfreeze() (collect_everything)
            self.whole = generation == FULL and (frozen == 0 or frozen > self.growth * self.settled)
            if self.whole:
                gc.unfreeze()  # this collection scans everything, the frozen objects too
            return
        if generation < MIDDLE:
            return
        gc.freeze()
        if self.whole:
            self.settled, self.whole = gc.get_freeze_count(), False
            self.whole_collections += 1


def collect_everything() -> int:
    """A whole collection, the frozen objects too; the number of objects it freed. For figures of
    the live memory (``memory_probe.py``), not for a server's every day."""
    gc.unfreeze()
    return gc.collect()

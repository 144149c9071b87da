"""The server's garbage collector (codecrack/web/collector.py): what survives a full collection is
frozen, so the next full collections do not scan it again; a cycle that dies while frozen is freed
by the next whole collection, once the frozen objects have grown past the limit."""

import gc
import weakref

import pytest

from codecrack.web.collector import Collector


class Node:
    """An object that can sit in a reference cycle."""

    partner: "Node | None" = None


def dead_cycle() -> weakref.ref:
    """A reference cycle that nothing else holds, which only a garbage collection frees."""
    node = Node()
    node.partner = node
    return weakref.ref(node)


@pytest.fixture
def collector():
    assert gc.get_freeze_count() == 0  # nothing in the test process is frozen but what this fixture does
    installed = Collector(growth=1000.0)
    installed.install()
    yield installed
    installed.uninstall()
    gc.unfreeze()


def test_what_survives_a_full_collection_is_not_scanned_again(collector):
    kept = [[index] for index in range(1000)]
    gc.collect()
    scanned = {id(item) for item in gc.get_objects()}
    assert not any(id(item) in scanned for item in kept)
    assert gc.get_freeze_count() >= collector.settled + len(kept)


def test_a_cycle_that_died_frozen_is_freed_by_the_next_whole_collection(collector):
    holder = [Node()]
    holder[0].partner = holder[0]
    gone = weakref.ref(holder[0])
    gc.collect()  # the cycle is alive: frozen
    holder.clear()
    gc.collect()  # dead, but frozen: not scanned
    assert gone() is not None and collector.whole_collections == 0
    collector.growth = 1.0  # the frozen objects have now grown past the limit
    gc.collect()
    assert gone() is None and collector.whole_collections == 1


def test_young_collections_leave_the_frozen_objects_alone(collector):
    frozen = gc.get_freeze_count()
    cycle = dead_cycle()
    gc.collect(0)
    gc.collect(1)
    assert gc.get_freeze_count() == frozen and cycle() is None

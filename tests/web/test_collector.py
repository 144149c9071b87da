"""The server's garbage collector (codecrack/web/collector.py): what survives a collection of the
middle generation (or a full one) is frozen, so no later collection scans it again; a cycle that
dies while frozen is freed by the next whole collection, once the frozen objects have grown past
the limit."""

import gc
import weakref

import pytest

from codecrack.web.collector import Collector, collect_everything


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


def test_what_survives_a_collection_of_the_middle_generation_is_not_scanned_again(collector):
    kept = [[index] for index in range(1000)]
    gc.collect(1)
    scanned = {id(item) for item in gc.get_objects()}
    assert not any(id(item) in scanned for item in kept)


def test_a_cycle_that_died_frozen_is_freed_by_a_whole_collection_once_the_heap_has_grown(collector):
    holder = [Node()]
    holder[0].partner = holder[0]
    gone = weakref.ref(holder[0])
    gc.collect()  # the cycle is alive: frozen
    holder.clear()
    gc.collect()  # dead, but frozen: not scanned
    assert gone() is not None and collector.whole_collections == 0
    collector.growth = 0.5  # the heap has now grown past the limit
    gc.collect(1)  # unfreezes everything, for the next full collection
    assert gc.get_freeze_count() == 0 and gone() is not None
    gc.collect()
    assert gone() is None and collector.whole_collections == 1 and gc.get_freeze_count() > 0


def test_the_youngest_collections_freeze_nothing(collector):
    frozen = gc.get_freeze_count()
    cycle, kept = dead_cycle(), [[index] for index in range(1000)]
    gc.collect(0)
    assert gc.get_freeze_count() == frozen and cycle() is None and kept


def test_collect_everything_frees_the_cycles_that_died_frozen(collector):
    holder = [Node()]
    holder[0].partner = holder[0]
    gone = weakref.ref(holder[0])
    gc.collect()
    holder.clear()
    assert collect_everything() >= 1 and gone() is None
    assert collector.whole_collections == 1

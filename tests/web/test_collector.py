"""The server's garbage collector (codecrack/web/collector.py): what survives a collection (young
or full) is frozen, so no later collection scans it again; a cycle that
dies while frozen is freed by the next whole collection, once the heap has grown past the limit:
``growth`` once as many sockets have closed as are open, else ``backstop``."""

import gc
import weakref

import pytest

from codecrack.web.collector import SOCKETS, Collector, Turnover, collect_everything

from .wsclient import HUMAN, RANDOM, create, seated


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
    installed = Collector(growth=1000.0, backstop=1000.0, sockets=Turnover())
    installed.install()
    yield installed
    installed.uninstall()
    gc.unfreeze()


def test_what_survives_a_collection_of_the_middle_generation_is_not_scanned_again(collector):
    kept = [[index] for index in range(1000)]
    gc.collect(1)
    scanned = {id(item) for item in gc.get_objects()}
    assert not any(id(item) in scanned for item in kept)


def frozen_dead_cycle() -> weakref.ref:
    """A reference cycle that was alive when the collector froze it, and has died since."""
    holder = [Node()]
    holder[0].partner = holder[0]
    gone = weakref.ref(holder[0])
    gc.collect()  # the cycle is alive: frozen
    holder.clear()
    gc.collect()  # dead, but frozen: not scanned
    return gone


def test_a_cycle_that_died_frozen_is_freed_by_a_whole_collection_once_the_heap_has_grown(collector):
    gone = frozen_dead_cycle()
    assert gone() is not None and collector.whole_collections == 0
    collector.growth = 0.5  # the heap has now grown past the limit (no socket open: nothing to wait for)
    gc.collect(1)  # unfreezes everything, for the next full collection
    assert gc.get_freeze_count() == 0 and gone() is not None
    gc.collect()
    assert gone() is None and collector.whole_collections == 1 and gc.get_freeze_count() > 0


def test_a_heap_grown_by_more_sockets_is_not_scanned_whole_before_as_many_have_closed(collector):
    collector.sockets.opened, collector.sockets.closed = 30, 10  # 20 open, 10 closed since start-up
    gone = frozen_dead_cycle()
    collector.growth = 0.5  # the heap has grown past the limit: the sockets' live objects
    gc.collect(1)
    gc.collect()
    assert collector.whole_collections == 0 and gc.get_freeze_count() > 0 and gone() is not None
    collector.sockets.closed = 20  # as many closed as are open (10): the dead cycles are due
    gc.collect(1)
    gc.collect()
    assert gone() is None and collector.whole_collections == 1


def test_the_backstop_frees_dead_cycles_while_sockets_only_open(collector):
    collector.sockets.opened = 20
    gone = frozen_dead_cycle()
    collector.growth = 0.5
    gc.collect(1)
    gc.collect()
    assert gone() is not None and collector.whole_collections == 0
    collector.backstop = 0.5  # the heap has grown past the backstop
    gc.collect(1)
    gc.collect()
    assert gone() is None and collector.whole_collections == 1


def test_the_sockets_closed_before_a_whole_collection_do_not_count_towards_the_next(collector):
    collector.sockets.opened, collector.sockets.closed = 30, 20  # 10 open, 20 closed
    collector.growth = 0.5
    gc.collect(1)
    gc.collect()
    assert collector.whole_collections == 1
    gone = frozen_dead_cycle()
    gc.collect(1)
    gc.collect()
    assert collector.whole_collections == 1 and gone() is not None


def test_what_survives_a_collection_of_the_youngest_generation_is_not_scanned_again(collector):
    cycle, kept = dead_cycle(), [[index] for index in range(1000)]
    gc.collect(0)
    scanned = {id(item) for item in gc.get_objects()}
    assert cycle() is None and not any(id(item) in scanned for item in kept)


def test_the_heap_is_measured_after_the_middle_generations_collections_only(collector):
    collector.growth = 0.5  # a whole collection is due
    gc.collect(0)
    assert not collector.thawed and gc.get_freeze_count() > 0
    gc.collect(1)
    assert collector.thawed and gc.get_freeze_count() == 0


def test_collect_everything_frees_the_cycles_that_died_frozen(collector):
    holder = [Node()]
    holder[0].partner = holder[0]
    gone = weakref.ref(holder[0])
    gc.collect()
    holder.clear()
    assert collect_everything() >= 1 and gone() is None
    assert collector.whole_collections == 1


def test_the_app_counts_the_websockets_that_open_and_close(client):
    made = create(client, "toy", [HUMAN, RANDOM], sit=0)
    opened, closed = SOCKETS.opened, SOCKETS.closed
    with seated(client, made["code"], made["token"]):  # greeted: the socket is open
        assert (SOCKETS.opened, SOCKETS.closed) == (opened + 1, closed)
    assert (SOCKETS.opened, SOCKETS.closed) == (opened + 1, closed + 1)

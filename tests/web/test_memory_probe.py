"""The soak's memory probe reads where the process's memory is (Linux and glibc only)."""

import os

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from codecrack.bench.memory_probe import (
    glibc,
    memory_figures,
    probed_app,
    pymalloc_figures,
    rss_split_mb,
    sqlite_files_kb,
)
from codecrack.web.store import make_engine

from .conftest import fast_config
from .wsclient import HUMAN, create, seated

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")


def test_the_rss_split_adds_up_to_the_rss():
    figures = memory_figures()
    split = rss_split_mb()
    assert set(split) == {"rss_anon_mb", "rss_file_mb", "rss_shmem_mb"}
    assert abs(sum(split.values()) - figures["rss_mb"]) < 2


def test_the_sqlite_files_are_measured_and_other_databases_have_none(tmp_path):
    url = f"sqlite:///{tmp_path}/probe.db"
    engine = make_engine(url)
    with engine.begin() as db:
        db.execute(text("CREATE TABLE t (x TEXT)"))
        db.execute(text("INSERT INTO t VALUES ('x')"))
    sizes = sqlite_files_kb(url)
    assert sizes["wal_kb"] > 0 and sizes["wal_index_kb"] > 0  # WAL mode: a WAL and its index
    assert set(sizes) == {"db_kb", "wal_kb", "wal_index_kb"}
    engine.dispose()
    assert sqlite_files_kb("postgresql+psycopg://cc@localhost/cc") == {}
    assert sqlite_files_kb("sqlite://") == {}


def test_pymalloc_is_read_without_losing_stderr(capfd):
    figures = pymalloc_figures()
    assert figures["pymalloc_arenas"] > 0 and figures["pymalloc_unused_pools"] >= 0
    os.write(2, b"still here")
    assert capfd.readouterr().err.endswith("still here")


@pytest.mark.skipif(glibc() is None, reason="glibc's mallinfo2 and malloc_info")
def test_each_malloc_arena_is_listed_main_first():
    arenas = memory_figures()["malloc_arenas_mb"]
    assert arenas and arenas[0] > 0


def test_the_probe_counts_loaded_tables_and_those_nobody_is_connected_to(tmp_path):
    """A game its players left mid-way stays loaded (up to ``max_live_tables``): the probe says
    how many such tables the server holds."""
    with TestClient(probed_app(fast_config(tmp_path))) as client:
        made = create(client, "toy", [HUMAN, HUMAN], sit=0)
        with seated(client, made["code"], made["token"]):
            assert tables_of(client) == {"live_tables": 1, "idle_tables": 0}
        assert tables_of(client) == {"live_tables": 1, "idle_tables": 1}


def tables_of(client) -> dict[str, int]:
    figures = client.get("/probe/memory").json()
    return {name: figures[name] for name in ("live_tables", "idle_tables")}

"""The load benchmarks against a real server process, at a tiny size: a kill -9 under load loses
no acknowledged action, the soak run reports the server's memory (and, probed, where it is), and
the idle-sockets run what silent sockets cost it."""

from codecrack.bench.idle import idle_benchmark
from codecrack.bench.serving import crash_benchmark, soak_benchmark


def test_kill_9_under_load_loses_no_acknowledged_action():
    report = crash_benchmark(games=1, workers=3, actions=40)
    assert report["acknowledged"] >= 40
    assert report["lost"] == 0 and report["unreplayable"] == 0


def test_the_soak_benchmark_reports_rss_along_the_way():
    report = soak_benchmark(games=4, workers=2)
    assert set(report["rss_mb"]) == {"1", "2", "3", "4"} and all(mb > 0 for mb in report["rss_mb"].values())


def test_the_probed_soak_says_where_the_servers_memory_is():
    report = soak_benchmark(games=2, workers=2, probe=1)
    assert set(report["probe"]) == {"start", "1", "2", "trimmed"}
    for figures in report["probe"].values():
        assert figures["rss_mb"] > 0 and figures["python_blocks"] > 0 and figures["sqlite_kb"] > 0
        assert figures["malloc_in_use_mb"] > 0 and figures["malloc_free_mb"] >= 0
        assert figures["rss_anon_mb"] > 0 and figures["rss_file_mb"] > 0 and figures["rss_shmem_mb"] >= 0
        assert figures["malloc_arenas_mb"][0] > 0 and figures["pymalloc_arenas"] > 0
        assert figures["db_kb"] > 0 and figures["wal_index_kb"] >= 0 and figures["garbage_objects"] >= 0


def test_the_idle_sockets_benchmark_says_what_seated_silent_sockets_cost():
    report = idle_benchmark(sockets=4, seconds=0.2, settle=0, clients=1, trace=1)
    assert (report["sockets"], report["tables"], report["live_tables"]) == (4, 2, 2)
    assert report["open_files"] >= 4 and report["idle_cpu_percent"] >= 0
    assert report["rss_mb"]["with_sockets"] > 0 and report["traced_kb_per_socket"] > 0
    for part in ("files", "lines"):
        assert report["top"][part] and all(line["kb"] > 0 and line["blocks"] > 0 for line in report["top"][part])

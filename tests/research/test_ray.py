"""The arena on Ray gives the same games as the process pool for the same seeds. This test joins
a small cluster by its address; docs/research.md's example (run by test_research_doc) starts the
default local Ray."""

import pytest

from codecrack.arena import ArenaConfig, play_series
from codecrack.ratings import Ladder

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")


@pytest.fixture(scope="module")
def cluster():
    head = {"num_cpus": 2, "include_dashboard": False, "object_store_memory": 128 * 1024 * 1024}
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args=head)
    yield cluster
    cluster.shutdown()


def outcomes(series):
    return [(game["index"], game["names"], game["places"], game["scores"], game["fault"]) for game in series.games]


def test_ray_and_the_process_pool_play_the_same_series(cluster):
    config = ArenaConfig("coda", 3, ("medium", "easy", "random"), 9, seed=7, workers=2)
    pool = play_series(config)
    on_ray = play_series(config, backend="ray", address=cluster.address)
    assert cluster.address.startswith("127.0.0.1:")
    assert outcomes(on_ray) == outcomes(pool)
    assert on_ray.summary()["agents"][0]["wins"] == pool.summary()["agents"][0]["wins"]
    ladders = [Ladder(), Ladder()]
    ladders[0].rate("coda", pool.games)
    ladders[1].rate("coda", on_ray.games)
    assert ladders[0].table("coda") == ladders[1].table("coda")
    assert not ray.is_initialized()


def test_the_speedup_benchmark_reports_both_worker_counts(cluster):
    from codecrack.bench import run_benchmark

    ray.init(address=cluster.address, log_to_driver=False)  # a running Ray is used as it is
    try:
        report = run_benchmark("arena-ray", games=2, level="random", repeats=1)
    finally:
        ray.shutdown()
    assert set(report["median_games_per_s"]) == {"1", "2"} and report["speedup_2_over_1"] > 0

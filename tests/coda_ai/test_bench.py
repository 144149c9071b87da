"""The coda-belief benchmark reports p50/p95 for 2, 3 and 4 players and is found by name."""

from codecrack.bench import benchmarks
from codecrack.games.coda.bench import belief_benchmark


def test_belief_benchmark_reports_every_table_size():
    report = belief_benchmark(games="1", seed="3", repeats=1)
    assert set(report["players"]) == {"2", "3", "4"}
    for row in report["players"].values():
        assert row["positions"] > 0 and row["p50_ms"] <= row["p95_ms"]
    assert benchmarks()["coda-belief"] is belief_benchmark

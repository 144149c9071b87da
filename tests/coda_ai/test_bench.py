"""The coda-belief benchmark reports p50/p95 for 2, 3 and 4 players and is found by name."""

from codecrack.bench import benchmarks
from codecrack.bench.coda import belief_benchmark


def test_belief_benchmark_reports_every_table_size():
    report = belief_benchmark(games="1", seed="3", repeats=1)
    assert set(report["players"]) == {"2", "3", "4"}
    for row in report["players"].values():
        assert row["positions"] > 0 and row["p50_ms"] <= row["p95_ms"]
    assert benchmarks()["coda-belief"] is belief_benchmark


def test_decisions_benchmark_plays_the_arenas_seeded_games():
    from codecrack.arena import ArenaConfig, play_one
    from codecrack.bench.coda import decisions_benchmark

    report = decisions_benchmark(seed="5", games="3", level="easy", players="2")
    row = report["players"]["2"]
    assert set(report["players"]) == {"2"} and row["games"] == 3 and row["fair_share"] == 0.5
    assert row["decisions"] > 0 and row["cpu_ms"]["p50"] <= row["cpu_ms"]["p95"] <= row["cpu_ms"]["max"]
    config = ArenaConfig("coda", 2, ("easy", "medium"), 3, seed=5)
    arena_wins = sum(play_one(config, index)["wins"].get("easy", 0.0) for index in range(3))
    assert row["win_rate"] == round(arena_wins / 3, 4)
    assert benchmarks()["coda-decisions"] is decisions_benchmark

"""``codecrack bench quick-match`` runs and reports waits (a few players only: the real run is in
docs/benchmarks.md)."""

from codecrack.bench import benchmarks, run_benchmark
from codecrack.bench.matching import quick_match


def test_the_quick_match_benchmark_seats_every_player_and_reports_their_waits():
    assert benchmarks()["quick-match"] is quick_match
    report = run_benchmark("quick-match", games=4, rate="600")
    assert report["players"] == 4 and report["per_minute"] == 600.0
    assert 0 <= report["wait_median_s"] <= report["wait_p95_s"] <= report["wait_max_s"]

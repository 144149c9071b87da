"""``codecrack bench writes`` runs and reports the CPU of each write it measures (a few tables only:
the real run is in docs/benchmarks.md)."""

from codecrack.bench import benchmarks, run_benchmark
from codecrack.bench.writes import writes_benchmark

MEASURED = ["table_opened_us", "game_end_us", "empty_transaction_us", "action_metrics_us", "batch_metrics_us"]


def test_the_writes_benchmark_reports_the_cpu_of_each_write():
    assert benchmarks()["writes"] is writes_benchmark
    report = run_benchmark("writes", tables="4", rounds="1")
    assert all(report[name] >= 0 for name in MEASURED)

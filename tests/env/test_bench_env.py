"""``codecrack bench env`` reports every figure, with options given as command-line text."""

from codecrack.bench import run_benchmark


def test_bench_env_reads_text_options_and_reports_each_interface():
    report = run_benchmark("env", game="coda", games=1, players="3", dashes="true")
    assert report["players"] == 3 and report["options"] == {"dashes": True}
    for figure in ("engine_actions_per_s", "pettingzoo_steps_per_s", "openspiel_steps_per_s", "kuhn_poker_steps_per_s"):
        assert report[figure] > 0

"""The coding-belief benchmark runs through the generic bench entry point."""

import pytest

from codecrack.bench import run_benchmark
from codecrack.core.errors import OptionError


def test_coding_belief_reports_p50_and_p95_for_2_and_4_players():
    report = run_benchmark("coding-belief", games=2, seed=3, repeats="1", mode="one-shot")
    assert report["benchmark"] == "coding-belief" and report["positions"] == 2
    for players in ("2", "4"):
        times = report["players"][players]["update_ms"]
        assert 0 < times["p50"] <= times["p95"]


def test_coding_belief_is_for_the_coding_only():
    with pytest.raises(OptionError, match="The Coding"):
        run_benchmark("coding-belief", game="coda", games=1)


def test_coding_oneshot_compares_the_written_answers_with_the_exact_best():
    report = run_benchmark("coding-oneshot", games=2, seed=1)
    assert report["answers"] == 6 and report["answers_below_joint_best"] == 0
    assert report["mean_written"] == report["mean_argmax"] == report["mean_joint_best"]

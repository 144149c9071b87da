"""The solver benchmark and the arena run Alphabet Code by agent name."""

import pytest

from codecrack.arena import ArenaConfig, run_arena
from codecrack.bench import run_benchmark
from codecrack.core.errors import OptionError


def test_the_solver_benchmark_reports_turns_and_times():
    report = run_benchmark("alphacode-solver", level="hard", codes=3, seed=2)
    assert report["solved"] == 3 and report["codes"] == 3
    assert 5 <= report["mean_turns"] <= report["max_turns"] <= 13
    assert sum(report["turns_histogram"].values()) == 3
    assert set(report["decision_ms"]) == {"p50", "p95", "max"}


def test_the_benchmark_cracks_tricky_codes_and_rejects_unknown_makers():
    assert run_benchmark("alphacode-solver", level="medium", codes=2, seed=0, maker="tricky")["solved"] == 2
    with pytest.raises(OptionError, match="maker"):
        run_benchmark("alphacode-solver", level="medium", codes=1, maker="nice")
    with pytest.raises(OptionError, match="games"):
        run_benchmark("alphacode-solver", level="medium", codes=1, games=3)


@pytest.mark.parametrize(
    "players,agents", [(2, ("hard", "medium")), (3, ("hard", "easy", "medium")), (4, ("medium", "random"))]
)
def test_arena_plays_every_seat_by_name(players, agents):
    report = run_arena(ArenaConfig("alphacode", players, agents, games=players, seed=1))
    assert report["games"] == players
    assert sum(row["wins"] for row in report["agents"]) > 0


def test_the_exact_benchmark_walks_every_code():
    hard = run_benchmark("alphacode-exact", level="hard", real_words="true")
    medium = run_benchmark("alphacode-exact", level="medium", real_words="true")
    assert hard["codes"] == medium["codes"] == 16
    assert 1 <= hard["mean_turns"] <= medium["mean_turns"] <= medium["max_turns"]
    with pytest.raises(OptionError, match="medium or hard"):
        run_benchmark("alphacode-exact", level="easy")

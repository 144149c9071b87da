import pytest

from codecrack.arena import ArenaConfig, run_arena
from codecrack.core import registry


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "tests.core.toy_game:ToyGame")


def test_arena_reports_every_agent_and_is_deterministic():
    config = ArenaConfig("toy", 2, ("random",), 20, seed=3)
    first, second = run_arena(config), run_arena(config)
    assert first["games"] == 20
    assert [a["wins"] for a in first["agents"]] == [a["wins"] for a in second["agents"]]
    row = first["agents"][0]
    assert row["name"] == "random" and row["seats"] == 2 and row["wins"] == 20
    assert set(row["decision_ms"]) == {"p50", "p95"}


def test_arena_parallel_matches_serial():
    serial = run_arena(ArenaConfig("toy", 3, ("random", "random"), 12, seed=1))
    parallel = run_arena(ArenaConfig("toy", 3, ("random", "random"), 12, seed=1, workers=2))
    assert serial["agents"][0]["wins"] == parallel["agents"][0]["wins"]


def test_arena_takes_agent_settings_and_refuses_unknown_agents_before_playing():
    from codecrack.core.errors import OptionError

    assert run_arena(ArenaConfig("coda", 2, ("greedy:0.3", "random"), 2, seed=1))["games"] == 2
    with pytest.raises(OptionError, match="unknown agent 'nobody'"):
        run_arena(ArenaConfig("coda", 2, ("nobody", "random"), 2))
    with pytest.raises(OptionError, match="names no command"):
        run_arena(ArenaConfig("coda", 2, ("cmd: ", "random"), 2))

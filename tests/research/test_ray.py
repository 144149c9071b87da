"""The arena on a local Ray gives the same games as the process pool for the same seeds."""

import pytest

from codecrack.arena import ArenaConfig, play_series
from codecrack.ratings import Ladder

ray = pytest.importorskip("ray")


def outcomes(series):
    return [(game["index"], game["names"], game["places"], game["scores"], game["fault"]) for game in series.games]


def test_ray_and_the_process_pool_play_the_same_series():
    config = ArenaConfig("coda", 3, ("medium", "easy", "random"), 9, seed=7, workers=2)
    pool = play_series(config)
    on_ray = play_series(config, backend="ray")
    assert outcomes(on_ray) == outcomes(pool)
    assert on_ray.summary()["agents"][0]["wins"] == pool.summary()["agents"][0]["wins"]
    ladders = [Ladder(), Ladder()]
    ladders[0].rate("coda", pool.games)
    ladders[1].rate("coda", on_ray.games)
    assert ladders[0].table("coda") == ladders[1].table("coda")
    assert not ray.is_initialized()

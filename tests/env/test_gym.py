"""The Gymnasium environment passes Gymnasium's checker for every game, and the example runs."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import codecrack
from codecrack.env.gym import make

from .configs import CONFIGS, config_id

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.filterwarnings("ignore:.*(spec|render)")
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_check_env(config):
    name, players, options = config
    check_env(make(name, seat=players - 1, opponents="random", players=players, **options), skip_render_check=True)


def test_a_game_against_hard_agents_ends_with_the_learners_win_share():
    env = make("coda", seat=1, opponents="hard", players=3)
    observation, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    terminated = truncated = False
    while not (terminated or truncated):
        observation, reward, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(observation["action_mask"])))
        )
    result = env.unwrapped.table.game.result
    assert terminated and reward == (1.0 / len(result["winners"]) if 1 in result["winners"] else 0.0)


def test_an_illegal_action_changes_nothing_and_says_why():
    env = make("coda", opponents="random")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    record = env.unwrapped.table.game.record()
    again, reward, terminated, _, info = env.step(illegal)
    assert "not legal now" in info["illegal_action"] and reward == 0 and not terminated
    assert env.unwrapped.table.game.record() == record
    assert np.array_equal(again["observation"], observation["observation"])


def test_bad_opponents_are_refused_with_the_valid_names():
    with pytest.raises(codecrack.OptionError, match="valid agents"):
        make("coda", opponents="grandmaster")
    with pytest.raises(codecrack.OptionError, match="one opponent per other seat"):
        make("coda", opponents=["hard", "easy"], players=2)


def test_the_example_script_runs():
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "gym_masked_greedy.py"), "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "masked greedy: win share" in done.stdout

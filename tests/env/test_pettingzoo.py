"""The PettingZoo AEC environment of every game passes PettingZoo's own API and seed tests."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from codecrack.env.pettingzoo import env

from .configs import CONFIGS, config_id


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_api_and_seed_tests(config):
    name, players, options = config
    api_test(env(name, players=players, **options), num_cycles=300)
    seed_test(lambda: env(name, players=players, **options), num_cycles=100)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_masked_random_games_end_with_each_seats_utility(config):
    name, players, options = config
    aec = env(name, players=players, **options)
    rng = np.random.default_rng(0)
    for seed in range(2):
        aec.reset(seed=seed)
        table, final = aec.unwrapped.table, {}
        for agent in aec.agent_iter():
            observation, reward, terminated, truncated, _ = aec.last()
            assert observation["observation"].shape == aec.observation_space(agent)["observation"].shape
            if terminated or truncated:
                final[agent] = reward
                aec.step(None)
                continue
            aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if table.game.over:
            expected = aec.unwrapped.nature.utilities(table.game.result, players)
            assert [final[f"player_{seat}"] for seat in range(players)] == expected


def test_a_simultaneous_choice_stays_unseen_until_every_seat_has_chosen():
    aec = env("coding", players=3)
    aec.reset(seed=5)
    before = {agent: aec.observe(agent)["observation"].copy() for agent in aec.agents}
    assert aec.agent_selection == "player_0"
    aec.step(int(np.flatnonzero(aec.observe("player_0")["action_mask"])[0]))
    assert aec.agent_selection == "player_1"
    for agent in aec.agents:
        assert np.array_equal(aec.observe(agent)["observation"], before[agent])
    assert aec.unwrapped.view("player_1")["history"] == []


def test_speed_mode_asks_each_remaining_seat_in_rotation_to_slap_or_wait():
    aec = env("coding", players=3, mode="speed")
    aec.reset(seed=2)
    table = aec.unwrapped.table
    slots = aec.unwrapped.nature.actions
    asked = []
    while table.game.step != "open" or len(asked) < 3:
        if table.game.step == "open":
            asked.append(aec.agent_selection)
            aec.step(slots.index({"type": "pass"}))
        else:
            aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert asked == ["player_0", "player_1", "player_2"]


def reference_mask(aec, agent) -> np.ndarray:
    """The mask by definition: each legal action of the seat's view mapped through ``ActionSpace.index``."""
    actions = aec.unwrapped.nature.actions
    mask = np.zeros(actions.size, dtype=np.int8)
    for action in aec.unwrapped.view(agent)["legal_actions"]:
        mask[actions.index(action)] = 1
    return mask


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_fast_action_mask_equals_the_mask_by_definition_over_random_games(config):
    name, players, options = config
    aec = env(name, players=players, **options)
    rng = np.random.default_rng(1)
    aec.reset(seed=5)
    for agent in aec.agent_iter(max_iter=400):
        observation, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        assert observation["action_mask"].dtype == np.int8
        assert np.array_equal(observation["action_mask"], reference_mask(aec, agent))
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("options", [{}, {"draw": "deck", "dashes": True}], ids=["classic", "deck-dashes"])
def test_codas_mask_from_the_state_equals_the_mask_by_definition_in_every_phase(options):
    """Coda's ``legal_mask`` reads each phase's slots off the state; over whole random games it
    must give the legal actions' slots in every phase, the empty pile's reveals included."""
    from codecrack.env.table import SerialTable

    phases, rng = set(), np.random.default_rng(2)
    for seed in range(12):
        table = SerialTable.new("coda", players=2, seed=seed, **options)
        actions = table.nature.actions
        while not table.over:
            seat = table.actor()
            legal = table.game.legal_actions(seat)
            phases.add(table.game.phase)
            assert np.array_equal(table.nature.legal_mask(table.game, seat), actions.mask(legal))
            table.act(seat, legal[rng.integers(len(legal))])
    assert {"draw", "guess", "place", "reveal"} <= phases

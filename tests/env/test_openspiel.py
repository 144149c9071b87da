"""OpenSpiel: pyspiel's random simulation test for every game, and IS-MCTS playing Coda."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from codecrack.env import openspiel  # noqa: F401 - registers the games

SIMULATED = [
    ("codecrack_coda", {"players": 2}, 2),
    ("codecrack_coda", {"players": 4}, 1),
    ("codecrack_coda", {"players": 3, "draw": "deck", "dashes": True}, 1),
    ("codecrack_coding", {"players": 2}, 2),
    ("codecrack_coding", {"players": 4, "mode": "speed"}, 1),
    ("codecrack_coding", {"players": 3, "mode": "one-shot"}, 1),
    ("codecrack_alphacode", {"players": 2}, 1),
    ("codecrack_alphacode", {"players": 4}, 1),
]


@pytest.mark.parametrize("name, params, sims", SIMULATED, ids=lambda x: str(x))
def test_random_simulations(name, params, sims):
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=sims, serialize=False, verbose=False)


def dealt(outcomes):
    """A 2-player Coda state after the openings, with the given chance outcomes."""
    state = pyspiel.load_game("codecrack_coda", {"players": 2}).new_initial_state()
    outcomes = iter(outcomes)
    while state.is_chance_node() or state.move_number() < 3:
        state.apply_action(next(outcomes) if state.is_chance_node() else state.legal_actions()[2])
    return state


def test_a_seat_cannot_tell_apart_deals_that_differ_only_in_the_other_seats_tiles():
    first = dealt([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    second = dealt([0, 0, 0, 0, 0, 3, 3, 3, 3, 3])
    assert first.information_state_string(0) == second.information_state_string(0)
    assert np.array_equal(first.information_state_tensor(0), second.information_state_tensor(0))
    assert first.information_state_string(1) != second.information_state_string(1)


def test_a_resampled_world_keeps_the_players_information_state():
    state = dealt([0] * 10)
    world = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    player = state.current_player()
    assert world.information_state_string(player) == state.information_state_string(player)


def test_ismcts_plays_a_game_of_coda_against_random():
    game = pyspiel.load_game("codecrack_coda", {"players": 2})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=4, max_world_samples=2, random_state=rng
    )
    opponent = pyspiel.make_uniform_random_bot(1, 7)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action((bot if state.current_player() == 0 else opponent).step(state))
    assert sorted(state.returns()) == [0.0, 1.0]


def test_a_configuration_with_unlisted_chance_is_refused():
    with pytest.raises(Exception, match="cannot list"):
        pyspiel.load_game("codecrack_alphacode", {"players": 2, "columns": 15})

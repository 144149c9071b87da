"""Every game's declared nature holds in play: the action space covers the legal actions, games end
within the length bound, and chance events are explicit outcomes that replay a game exactly."""

import pytest

import codecrack
from codecrack.agents import RandomAgent
from codecrack.core.nature import ForcedChance
from codecrack.core.registry import game_class
from codecrack.core.runner import next_actor

CONFIGS = [
    ("coda", 2, {}),
    ("coda", 4, {}),
    ("coda", 3, {"draw": "deck", "dashes": True}),
    ("coda", 2, {"memory": True, "rounds": 3}),
    ("coding", 2, {}),
    ("coding", 4, {}),
    ("coding", 3, {"mode": "speed"}),
    ("coding", 4, {"mode": "speed"}),
    ("coding", 2, {"mode": "one-shot"}),
    ("coding", 3, {"mode": "counter"}),
    ("alphacode", 2, {}),
    ("alphacode", 3, {}),
    ("alphacode", 4, {"real_words": True}),
]


def played(name, players, options, seed):
    """A random game, checking every legal action against the declared space on the way."""
    nature = game_class(name).nature(players, **options)
    game = codecrack.new_game(name, players=players, seed=seed, **options)
    agents = {seat: RandomAgent(seed=seed + seat) for seat in range(players)}
    rounds = 1
    while not game.over:
        seat = next_actor(game, agents)
        legal = game.legal_actions(seat)
        slots = [nature.actions.index(action) for action in legal]
        assert len(set(slots)) == len(slots), "two legal actions share a slot"
        assert nature.actions.mask(legal).sum() == len(legal)
        action = agents[seat].act(game.view(seat))
        assert nature.actions.action(nature.actions.index(action), legal) == action
        game.apply(seat, action)
        rounds = max(rounds, game.view(None).get("round", 1))
    return nature, game, rounds


@pytest.mark.parametrize("name, players, options", CONFIGS)
def test_play_stays_inside_the_declaration(name, players, options):
    for seed in range(3):
        nature, game, rounds = played(name, players, options, seed)
        bound = nature.max_length * (1 if nature.rounds_bounded else rounds)
        assert len(game.record()["actions"]) <= bound
        assert {kind for kind, _, _ in game.chance_log} <= set(nature.chance)
        assert all(0 <= chosen < outcomes <= nature.max_chance_outcomes for _, chosen, outcomes in game.chance_log)
        utilities = nature.utilities(game.result, players)
        assert all(0 <= u <= nature.max_utility for u in utilities)


@pytest.mark.parametrize("name, players, options", CONFIGS)
def test_chance_outcomes_replay_a_game_under_another_seed(name, players, options):
    _, game, _ = played(name, players, options, seed=11)
    forced = ForcedChance([chosen for _, chosen, _ in game.chance_log])
    again = codecrack.replay({**game.record(), "seed": 999}, chance=forced)
    assert again.chance_log == game.chance_log
    for seat in [None, *range(players)]:
        assert again.view(seat) == game.view(seat)


def test_a_game_without_a_nature_module_says_so():
    from tests.core.toy_game import ToyGame

    with pytest.raises(codecrack.OptionError, match="declares no nature"):
        ToyGame.nature(2)


def test_an_action_outside_the_space_is_refused():
    nature = game_class("coda").nature(2)
    with pytest.raises(codecrack.IllegalAction, match="outside"):
        nature.actions.index({"type": "guess", "target": 9})

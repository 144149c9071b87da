"""Search over sampled worlds: worlds drawn exactly from the seat's belief, games built from the
seat's view alone, and a searching hard that finishes every variant."""

from __future__ import annotations

import random

import numpy as np
import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.core.runner import run_game
from codecrack.games.coda.agents import MediumAgent, RolloutMedium
from codecrack.games.coda.belief import solve
from codecrack.games.coda.observe import position_from_view
from codecrack.games.coda.playout import Misses, Playouts, seat_position
from codecrack.games.coda.search import guesses, likeliest, targets, with_value
from codecrack.games.coda.worlds import sample_values, world_game


def guess_view(players=2, seed=7, turns=3, **options):
    """The view of the seat to move at the start of its ``turns``-th guess phase of a medium game."""
    game = codecrack.new_game("coda", players=players, seed=seed, **options)
    agents = {s: make_agent("medium", "coda", seed=s) for s in range(players)}
    seen = 0
    while True:
        seat = min(game.to_move)
        view = game.view(seat)
        if view["phase"] == "guess" and not view["hits_this_turn"]:
            seen += 1
            if seen == turns:
                return view
        game.apply(seat, agents[seat].act(view))


def test_sampled_worlds_follow_the_exact_marginals():
    view = guess_view(players=3, seed=11, turns=4)
    position = position_from_view(view)
    belief = solve(position)
    rng = random.Random(3)
    draws = [sample_values(position, belief, rng) for _ in range(1500)]
    for place in draws[0]:
        seat, index = place
        frequencies = np.bincount([d[place] for d in draws], minlength=13) / len(draws)
        assert np.abs(frequencies - belief.probs[seat][index]).max() < 0.05


def test_every_sampled_world_is_consistent_with_the_view():
    view = guess_view(players=2, seed=5, turns=3, dashes=True)
    position = position_from_view(view)
    belief = solve(position)
    rng = random.Random(1)
    for _ in range(30):
        values = sample_values(position, belief, rng)
        fixed = position
        for (seat, index), value in values.items():
            fixed = with_value(fixed, seat, index, value)
        assert solve(fixed).total == 1


@pytest.mark.parametrize("options", [{}, {"dashes": True}, {"draw": "deck"}])
def test_a_world_looks_to_the_seat_exactly_like_its_view(options):
    view = guess_view(players=3, seed=2, turns=3, **options)
    position = position_from_view(view)
    values = sample_values(position, solve(position), random.Random(4))
    world = world_game(view, values, random.Random(5))
    assert world.view(view["seat"]) == view


def test_playouts_score_each_action_in_the_same_worlds():
    view = guess_view(players=2, seed=9, turns=2)
    position = position_from_view(view)
    actions = [a for a in view["legal_actions"] if a["type"] == "guess"][:2]
    results = Playouts(4, lambda seed, seat: RolloutMedium(seed=seed)).values(
        view, position, solve(position), actions, random.Random(0)
    )
    assert [len(r) for r in results] == [4, 4]
    assert all(r in (0.0, 1.0) for row in results for r in row)


@pytest.mark.parametrize("options", [{}, {"dashes": True}, {"empty_deck": "eliminate"}, {"rounds": 3}])
def test_a_searching_hard_finishes_every_variant(options):
    game = codecrack.new_game("coda", players=3, seed=4, **options)
    agents = {
        0: make_agent("hard:playouts=300:min_worlds=2", "coda", seed=1),
        1: make_agent("medium", "coda", seed=2),
        2: make_agent("greedy", "coda", seed=3),
    }
    run_game(game, agents)
    assert game.over


class ViewMedium(MediumAgent):
    """``medium`` in a playout the slow way: through the whole view of its seat."""

    def act_in(self, game, seat, misses):
        return self.act(game.view(seat))


@pytest.mark.parametrize(
    "turns, options",
    [(2, {}), (2, {"dashes": True}), (2, {"draw": "deck"}), (2, {"empty_deck": "eliminate"}), (20, {"rounds": 3})],
)
def test_the_rollout_medium_reads_the_game_as_its_view_and_decides_the_same(turns, options):
    view = guess_view(players=3, seed=6, turns=turns, **options)  # turn 20 of that tournament: round 3
    position = position_from_view(view)
    belief = solve(position)
    actions = [a for a in view["legal_actions"] if a["type"] == "guess"][:1]
    values = sample_values(position, belief, random.Random(1))
    played = []
    for policy in (RolloutMedium, ViewMedium):
        world = world_game(view, values, random.Random(3))
        Playouts(1, lambda seed, seat: policy(seed)).play(world, view["seat"], actions[0], seed=5)
        played.append(world.record()["actions"])
    assert played[0] == played[1]
    world = world_game(view, values, random.Random(3))
    agents = [make_agent("medium", "coda", seed=s) for s in range(3)]
    misses = Misses()
    while not world.over:
        seat = min(world.to_move)
        seen = world.view(seat)
        assert seat_position(world, seat, misses.catch_up(world)) == position_from_view(seen)
        world.apply(seat, agents[seat].act(seen))


@pytest.mark.parametrize("players, options", [(2, {}), (3, {"dashes": True}), (4, {})])
def test_the_likeliest_guesses_are_the_top_of_all_guesses_in_order(players, options):
    for turns in (1, 2, 3):
        view = guess_view(players=players, seed=turns, turns=turns, **options)
        position = position_from_view(view)
        belief = solve(position)
        seats = targets(view)
        every = guesses(position, belief, seats)
        assert likeliest(position, belief, seats) == [g for g in every if g.p == every[0].p]


@pytest.mark.parametrize("players", [2, 3])
def test_hard_plays_itself_bolder_in_its_two_player_playouts_only(players):
    view = guess_view(players=players, seed=9, turns=2)
    hard = make_agent("hard:rollout_self=0.35:rollout_rival=0.45", "coda", seed=1)
    policy = hard.rollout_policy(view)
    thresholds = [policy(seed=3, seat=seat).keep_going for seat in range(players)]
    me = view["seat"]
    expected = [0.35 if seat == me else 0.45 for seat in range(2)] if players == 2 else [0.5] * players
    assert thresholds == expected

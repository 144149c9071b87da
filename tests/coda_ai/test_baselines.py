"""The Coda baselines (``greedy``): settings by name, every variant, fairness, the stop rule."""

from __future__ import annotations

import pytest

import codecrack
from codecrack.agents import agent_names, make_agent
from codecrack.core.errors import OptionError
from codecrack.core.runner import run_game
from codecrack.games.coda.baselines import GreedyAgent
from tests.coda_ai.test_agents import VARIANTS, swap_unseen


def test_greedy_is_registered_with_its_threshold():
    assert "greedy" in agent_names("coda")
    assert make_agent("greedy", "coda").threshold == 0.4
    assert make_agent("greedy:0.3", "coda").threshold == 0.3
    assert make_agent("greedy:threshold=0.7", "coda").threshold == 0.7


@pytest.mark.parametrize("spec", ["greedy:x=1", "greedy:0.3:0.5", "hard:0.3", "greedy:threshold=high"])
def test_bad_settings_in_a_name_are_option_errors(spec):
    with pytest.raises(OptionError):
        make_agent(spec, "coda")


@pytest.mark.parametrize("options", VARIANTS)
def test_greedy_finishes_every_variant(options):
    game = codecrack.new_game("coda", players=3, seed=6, **options)
    run_game(game, {0: make_agent("greedy:0.3", "coda", seed=1), 1: make_agent("greedy", "coda", seed=2),
                    2: make_agent("medium", "coda", seed=3)})
    assert game.over


def stop_decisions(threshold: float, seed: int) -> list[tuple[float, bool]]:
    """(best chance, stopped) at every decision after a hit in a greedy-vs-greedy game."""
    game = codecrack.new_game("coda", players=2, seed=seed)
    agents = {s: GreedyAgent(seed=s, threshold=threshold) for s in (0, 1)}
    seen = []
    while not game.over:
        seat = min(game.to_move)
        view = game.view(seat)
        action = agents[seat].act(view)
        if view["phase"] == "guess" and view["hits_this_turn"]:
            position, belief = agents[seat].knowledge(view)
            seen.append((agents[seat].options(view, position, belief)[0].p, action["type"] == "stop"))
        game.apply(seat, action)
    return seen


@pytest.mark.parametrize("threshold", [0.3, 0.7])
def test_greedy_goes_on_exactly_while_the_best_guess_reaches_the_threshold(threshold):
    decisions = [d for seed in range(8, 12) for d in stop_decisions(threshold, seed)]
    assert {stopped for _, stopped in decisions} == {True, False}
    assert all(stopped == (p < threshold) for p, stopped in decisions)


def test_greedy_ignores_values_the_seat_cannot_know():
    game = codecrack.new_game("coda", players=2, seed=21)
    agents = {s: make_agent("medium", "coda", seed=s) for s in (0, 1)}
    compared = 0
    while not game.over and compared < 4:
        seat = min(game.to_move)
        view = game.view(seat)
        twin = swap_unseen(game, seat)
        if twin is not None and view["phase"] in ("draw", "guess"):
            assert make_agent("greedy", "coda", seed=5).act(view) == make_agent("greedy", "coda", seed=5).act(twin.view(seat))
            compared += 1
        game.apply(seat, agents[seat].act(view))
    assert compared >= 3

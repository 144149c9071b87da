"""The Coda baselines (``greedy``): settings by name and the stop rule (every variant and the
fairness check run in ``test_agents.py`` with the tiers)."""

from __future__ import annotations

import pytest

import codecrack
from codecrack.agents import agent_names, make_agent
from codecrack.core.errors import OptionError
from codecrack.games.coda.baselines import GreedyAgent


def test_greedy_is_registered_with_its_threshold():
    assert "greedy" in agent_names("coda")
    assert make_agent("greedy", "coda").keep_going == 0.4
    assert make_agent("greedy:0.3", "coda").keep_going == 0.3
    assert make_agent("greedy:threshold=0.7", "coda").keep_going == 0.7


@pytest.mark.parametrize("spec", ["greedy:x=1", "greedy:0.3:0.5", "hard:0.3", "greedy:threshold=high"])
def test_bad_settings_in_a_name_are_option_errors(spec):
    with pytest.raises(OptionError):
        make_agent(spec, "coda")


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

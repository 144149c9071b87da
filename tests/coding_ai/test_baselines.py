"""The Coding's ``bluffer`` test agent: it names its own letter in a wrong decode, on purpose."""

from __future__ import annotations

import pytest

import codecrack
from codecrack.agents import agent_names, make_agent
from codecrack.core.runner import next_actor, run_game


@pytest.mark.parametrize("mode", ["counter", "counter-revised", "speed", "one-shot"])
def test_bluffer_finishes_every_mode(mode):
    game = codecrack.new_game("coding", players=3, seed=2, mode=mode)
    run_game(game, {s: make_agent(name, "coding", seed=s) for s, name in enumerate(["bluffer", "hard", "medium"])})
    assert game.over and "bluffer" in agent_names("coding")


def test_bluffer_decodes_with_its_own_letter_and_keeps_it_hidden():
    game = codecrack.new_game("coding", players=4, seed=3, mode="counter")
    agents = {s: make_agent("bluffer" if s == 1 else "medium", "coding", seed=s) for s in range(4)}
    while not game.over:
        seat = next_actor(game, agents)
        game.apply(seat, agents[seat].act(game.view(seat)))
    letter = game.result["codes"][1][0]
    bluffs = [e for e in game.history if e["type"] == "decode" and e["seat"] == 1]
    assert bluffs and bluffs[0]["code"][0] == letter and not bluffs[0]["correct"]
    first_reveal = next(e for e in game.history if e["type"] == "revealed" and e["seat"] == 1)
    assert first_reveal["card"] != "letter"

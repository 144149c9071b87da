"""A Coding agent can be sent to a worker process and back between moves (issue 24 §1: every table's
bot moves run in the sandbox's workers, the light tables' too) and plays exactly as if it had
stayed: its random generator travels, and so does what it keeps between moves."""

from __future__ import annotations

import pickle

import pytest

import codecrack
from codecrack.core.runner import next_actor
from codecrack.games.coding.agents import AGENTS

MODES = ("counter-revised", "speed")  # turns, and a race


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("tier", sorted(AGENTS))
def test_an_agent_sent_away_between_moves_plays_as_one_that_stayed(tier, mode):
    game = codecrack.new_game("coding", players=3, seed=4, mode=mode)
    stayed = {seat: AGENTS[tier](seed=seat) for seat in range(3)}
    travels = {seat: AGENTS[tier](seed=seat) for seat in range(3)}
    while not game.over:
        seat = next_actor(game, stayed)
        view = game.view(seat)
        travels[seat] = pickle.loads(pickle.dumps(travels[seat]))
        action = stayed[seat].act(view)
        assert travels[seat].act(view) == action
        game.apply(seat, action)

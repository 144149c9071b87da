"""A Coda agent can be sent to a worker process and back between moves (issue 24 §1: every table's
bot moves run in the sandbox's workers, the light tables' too) and plays exactly as if it had
stayed: its random generator travels, and so does what it keeps between moves."""

from __future__ import annotations

import pickle

import pytest

import codecrack
from codecrack.core.runner import next_actor
from codecrack.games.coda.agents import AGENTS

OPTIONS = {"memory": True}  # what a Coda agent keeps between moves: its own forgotten tiles (dashes: 97 s at hard)


@pytest.mark.parametrize("tier", sorted(AGENTS))
def test_an_agent_sent_away_between_moves_plays_as_one_that_stayed(tier):
    game = codecrack.new_game("coda", players=2, seed=4, **OPTIONS)
    stayed = {seat: AGENTS[tier](seed=seat) for seat in range(2)}
    travels = {seat: AGENTS[tier](seed=seat) for seat in range(2)}
    while not game.over:
        seat = next_actor(game, stayed)
        view = game.view(seat)
        travels[seat] = pickle.loads(pickle.dumps(travels[seat]))
        action = stayed[seat].act(view)
        assert travels[seat].act(view) == action
        game.apply(seat, action)

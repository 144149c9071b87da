"""An Alphabet Code agent can be sent to a worker process and back between moves (issue 24 §1: a
heavy table's bot moves run in the sandbox's workers) and plays exactly as if it had stayed: its
random generator travels, and what it read of the game is read again from the next view."""

from __future__ import annotations

import pickle

import pytest

import codecrack
from codecrack.games.alphacode.agents import AGENTS


@pytest.mark.parametrize("tier", sorted(AGENTS))
def test_an_agent_sent_away_between_moves_plays_as_one_that_stayed(tier):
    """Before: pickling failed (a ``Tracker`` held a lambda)."""
    game = codecrack.new_game("alphacode", players=2, seed=4, columns=15)
    stayed = {seat: AGENTS[tier](seed=seat) for seat in (0, 1)}
    travels = {seat: AGENTS[tier](seed=seat) for seat in (0, 1)}
    while not game.over:
        seat = min(game.awaited)
        view = game.view(seat)
        travels[seat] = pickle.loads(pickle.dumps(travels[seat]))
        action = stayed[seat].act(view)
        assert travels[seat].act(view) == action
        game.apply(seat, action)
    travelled = pickle.dumps(travels[0])
    assert len(travelled) < 20_000  # the candidates stay behind: they are read again from the view

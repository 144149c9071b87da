"""A Coda agent can be sent to a worker process and back between moves (issue 24 §1: every table's
bot moves run in the sandbox's workers, the light tables' too) and plays exactly as if it had
stayed: its random generator travels, and so does what it keeps between moves."""

from __future__ import annotations

import pytest

import codecrack
from codecrack.games.coda.agents import AGENTS
from tests.core.travel import plays_the_same_after_travels

OPTIONS = {"memory": True}  # what a Coda agent keeps between moves: its own forgotten tiles (dashes: 97 s at hard)


@pytest.mark.parametrize("tier", sorted(AGENTS))
def test_an_agent_sent_away_between_moves_plays_as_one_that_stayed(tier):
    game = codecrack.new_game("coda", players=2, seed=4, **OPTIONS)
    plays_the_same_after_travels(game, lambda seat: AGENTS[tier](seed=seat))

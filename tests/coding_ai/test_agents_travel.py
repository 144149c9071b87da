"""A Coding agent can be sent to a worker process and back between moves (issue 24 §1: every table's
bot moves run in the sandbox's workers, the light tables' too) and plays exactly as if it had
stayed: its random generator travels, and so does what it keeps between moves."""

from __future__ import annotations

import pytest

import codecrack
from codecrack.games.coding.agents import AGENTS
from tests.core.travel import plays_the_same_after_travels

MODES = ("counter-revised", "speed")  # turns, and a race


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("tier", sorted(AGENTS))
def test_an_agent_sent_away_between_moves_plays_as_one_that_stayed(tier, mode):
    game = codecrack.new_game("coding", players=3, seed=4, mode=mode)
    plays_the_same_after_travels(game, lambda seat: AGENTS[tier](seed=seat))

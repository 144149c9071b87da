"""Every game, variant and table size can be reviewed from every seat."""

from __future__ import annotations

import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.core.runner import run_game
from codecrack.review import GRADES, review_record
from tests.coda_ai.test_agents import VARIANTS

CASES = [("coda", 2, options) for options in VARIANTS] + [
    ("coda", 4, {"dashes": True}),
    ("coding", 2, {"mode": "counter"}),
    ("coding", 4, {"mode": "counter-revised"}),
    ("coding", 3, {"mode": "speed"}),
    ("coding", 3, {"mode": "one-shot"}),
    ("alphacode", 2, {}),
    ("alphacode", 3, {}),
]


@pytest.mark.parametrize("game,players,options", CASES)
def test_every_seat_of_a_finished_game_is_reviewed(game, players, options):
    match = codecrack.new_game(game, players=players, seed=11, **options)
    tiers = ["hard", "medium", "easy", "random"]
    run_game(match, {s: make_agent(tiers[s % len(tiers)], game, seed=s) for s in range(players)})
    record = match.record()
    for seat in range(players):
        review = review_record(record, seat)
        assert review.finished and all(d.grade in GRADES for d in review.decisions)
        assert all(
            0 <= d.step < len(record["actions"]) and record["actions"][d.step][0] == seat for d in review.decisions
        )

"""A review never uses what the seat lacked: worlds the seat cannot tell apart get the same review.

For Coda and The Coding a twin game differs only in hidden values (tiles, codes, decks) drawn
so that the seat's view is the same; both games then take the same actions, and the seat's
decisions are reviewed from each game's views until the hidden difference shows. For Alphabet
Code two *records* differ only in the hidden code and are reviewed whole with ``review_record``:
the decisions made before any answer differed must be graded identically.
"""

from __future__ import annotations

import random

import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.core.errors import IllegalAction
from codecrack.core.runner import next_actor
from codecrack.review.core import review_record, review_steps, seat_steps
from tests.alphacode_ai.helpers import CHIEF, OTHER, code_action
from tests.alphacode_ai.test_fairness import lookalike
from tests.coda_ai.test_agents import swap_unseen
from tests.coding_ai.test_agents import consistent_alternative


def twin_steps(game, twin, seat, agents):
    """The seat's (step, view, action) in ``game`` and in ``twin`` while its views agree."""
    mine, theirs = [], []
    step = len(game.record()["actions"])
    while not game.over and game.view(seat) == twin.view(seat):
        mover = next_actor(game, agents)
        action = agents[mover].act(game.view(mover))
        if mover == seat:
            mine.append((step, game.view(seat), action))
            theirs.append((step, twin.view(seat), action))
        game.apply(mover, action)
        try:
            twin.apply(mover, action)
        except IllegalAction:  # the hidden difference decided what is legal: it is visible now
            break
        step += 1
    return mine, theirs


def compare_twins(name, game, make_twin, seat, agents, warmup):
    """Play ``warmup`` actions, build the twin, and compare the seat's reviews in both."""
    for _ in range(warmup):
        mover = next_actor(game, agents)
        game.apply(mover, agents[mover].act(game.view(mover)))
    twin = make_twin(game)
    assert twin is not None
    mine, theirs = twin_steps(game, twin, seat, agents)
    ours, twins = review_steps(name, seat, mine), review_steps(name, seat, theirs)
    assert ours == twins
    return ours


@pytest.mark.parametrize("players,seed", [(2, 21), (3, 5)])
def test_coda_review_is_the_same_in_worlds_the_seat_cannot_tell_apart(players, seed):
    game = codecrack.new_game("coda", players=players, seed=seed)
    agents = {s: make_agent("medium", "coda", seed=s) for s in range(players)}
    decisions = compare_twins("coda", game, lambda g: swap_unseen(g, 0), 0, agents, warmup=players + 1)
    assert len(decisions) >= 2


@pytest.mark.parametrize("mode,players", [("counter", 3), ("one-shot", 3), ("counter-revised", 2)])
def test_coding_review_is_the_same_in_worlds_the_seat_cannot_tell_apart(mode, players):
    rng = random.Random(players)
    game = codecrack.new_game("coding", players=players, seed=21, mode=mode)
    agents = {s: make_agent("hard", "coding", seed=s) for s in range(players)}
    decisions = compare_twins(
        "coding", game, lambda g: consistent_alternative(g, 0, rng), 0, agents, warmup=players + 2
    )
    assert len(decisions) >= 2


def alphacode_record(hidden):
    game = codecrack.new_game("alphacode", players=2, seed=5, first=0)
    game.apply(0, code_action(OTHER))
    game.apply(1, hidden)
    agents = {s: make_agent("medium", "alphacode", seed=7 + s) for s in (0, 1)}
    while not game.over:
        mover = min(game.to_move)
        game.apply(mover, agents[mover].act(game.view(mover)))
    return game.record()


def test_alphacode_records_differing_only_in_the_hidden_code_review_alike_until_the_answers_differ():
    first = alphacode_record(code_action(CHIEF))
    game = codecrack.replay({**first, "actions": first["actions"][:6]})
    second = alphacode_record(lookalike(game))
    views = [
        {
            step: view
            for step, view, _ in seat_steps(
                codecrack.new_game("alphacode", players=2, seed=5, first=0), r["actions"], 0
            )
        }
        for r in (first, second)
    ]
    same = [step for step in sorted(views[0]) if views[1].get(step) == views[0][step]]
    assert same and same == sorted(views[0])[: len(same)]
    shown = same[-1]
    reviews = [[d for d in review_record(r, 0).decisions if d.step <= shown] for r in (first, second)]
    assert reviews[0] == reviews[1] and len(reviews[0]) >= 2

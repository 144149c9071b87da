"""Auto-notes come from the seat's own view only (issue 25 §3): at twin tables whose hidden values
differ (an opponent's tiles, the other codes, the code being cracked) but whose view for the seat
is the same, the hint message the seat is sent (its auto-notes and probabilities) is byte-identical,
step after step, until the difference shows in the seat's view."""

from __future__ import annotations

import asyncio
import copy
import random

import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.core.runner import next_actor
from codecrack.web import messages
from codecrack.web.connections import encode
from codecrack.web.hints import hint_for
from codecrack.web.work import Work
from tests.alphacode_ai.helpers import CHIEF, code_action
from tests.alphacode_ai.test_fairness import lookalike
from tests.coda_ai.test_agents import swap_unseen
from tests.coding_ai.test_agents import consistent_alternative

from .conftest import fast_config
from .ports import memory_table

SEAT = 0


def coda_twins():
    game = codecrack.new_game("coda", players=2, seed=21)
    agents = {s: make_agent("medium", "coda", seed=s) for s in (0, 1)}
    for _ in range(3):
        mover = next_actor(game, agents)
        game.apply(mover, agents[mover].act(game.view(mover)))
    return game, swap_unseen(game, SEAT), agents


def coding_twins():
    game = codecrack.new_game("coding", players=3, seed=21, mode="counter")
    agents = {s: make_agent("hard", "coding", seed=s) for s in range(3)}
    for _ in range(5):
        mover = next_actor(game, agents)
        game.apply(mover, agents[mover].act(game.view(mover)))
    return game, consistent_alternative(game, SEAT, random.Random(3)), agents


def alphacode_twins():
    def new(code):
        game = codecrack.new_game("alphacode", players=2, seed=5, first=0)
        game.apply(0, {"type": "random_code"})
        game.apply(1, code)
        return game

    game = new(code_action(CHIEF))
    agents = {s: make_agent("medium", "alphacode", seed=7 + s) for s in (0, 1)}
    for _ in range(4):
        mover = next_actor(game, agents)
        game.apply(mover, agents[mover].act(game.view(mover)))
    twin = new(lookalike(game))
    for actor, action in game.record()["actions"][2:]:
        twin.apply(actor, action)
    return game, twin, agents


async def notes_sent(game, work: Work) -> str:
    """The hint message a seat of a live table holding ``game`` is sent, as on the wire."""
    table = memory_table(game.name, options=game.record()["options"], seed=game.record()["seed"])
    table.game = game
    step, view = await table.seat_view(SEAT)
    return encode(messages.hint(step, await hint_for(table, view, work, work.light, ("hint", table.code, SEAT, step))))


@pytest.mark.parametrize("twins", [coda_twins, coding_twins, alphacode_twins])
def test_auto_notes_are_the_same_in_worlds_the_seat_cannot_tell_apart(twins, tmp_path):
    game, twin, agents = twins()
    assert twin is not None
    work = Work(fast_config(str(tmp_path)))
    compared = 0
    try:
        while not game.over and game.view(SEAT) == twin.view(SEAT) and compared < 12:
            ours, theirs = (
                asyncio.run(notes_sent(copy.deepcopy(game), work)),
                asyncio.run(notes_sent(copy.deepcopy(twin), work)),
            )
            assert ours == theirs
            assert '"hint":null' not in ours  # the notes are there (the seat's sheet is not empty)
            compared += 1
            mover = next_actor(game, agents)
            action = agents[mover].act(game.view(mover))
            game.apply(mover, action)
            twin.apply(mover, action)
    finally:
        work.close()
    assert compared >= 1

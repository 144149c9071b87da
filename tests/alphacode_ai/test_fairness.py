"""Fair play: an agent's decisions depend on its view only, never on the hidden code it cracks."""

import pytest

import codecrack
from codecrack.games.alphacode.agents import AGENTS
from codecrack.games.alphacode.knowledge import Tracker
from codecrack.games.alphacode.solver import CodeSpace

from .helpers import CHIEF, OTHER, code_action


def new(players, hidden):
    """A game in play where the code seat 0 cracks is ``hidden`` (seat 0 holds OTHER in a duel)."""
    game = codecrack.new_game("alphacode", players=players, seed=5, first=0)
    if players == 2:
        game.apply(0, code_action(OTHER))
    game.apply(players - 1, hidden)
    return game


def play_out(game, level, turns):
    """Every seat plays ``level`` until seat 0 has taken ``turns`` turns; returns the moves."""
    agents = {seat: AGENTS[level](seed=7 + seat) for seat in range(game.players)}
    start = len(game.record()["actions"])
    while turns and not game.over:
        mover = min(game.to_move)
        game.apply(mover, agents[mover].act(game.view(mover)))
        turns -= mover == 0
    return game.record()["actions"][start:]


def seat0_decisions(game, level, moves):
    """Replay ``moves``; return seat 0's views and what a fresh agent with seed 7 chooses at each."""
    agent, views, choices = AGENTS[level](seed=7), [], []
    for mover, action in moves + [(0, None)]:
        if mover == 0:
            views.append(game.view(0))
            choices.append(agent.act(views[-1]))
        if action is not None:
            game.apply(mover, action)
    return views, choices


def lookalike(game):
    """Another legal code giving every answer seat 0 has heard so far."""
    view = game.view(0)
    space = CodeSpace.for_view(view)
    alive = space.without(Tracker("target").update(view), code_action(CHIEF)["letters"])
    assert len(alive), "the answers already pin the code down"
    return {"type": "code", "letters": space.code_json(int(alive[0]))}


@pytest.mark.parametrize("players,level", [(2, "easy"), (2, "medium"), (2, "hard"), (3, "hard")])
def test_decisions_ignore_the_hidden_code(players, level):
    game = new(players, code_action(CHIEF))
    moves = play_out(game, level, 3)
    twin_code = lookalike(game)
    views_a, choices_a = seat0_decisions(new(players, code_action(CHIEF)), level, moves)
    views_b, choices_b = seat0_decisions(new(players, twin_code), level, moves)
    assert views_a == views_b and choices_a == choices_b

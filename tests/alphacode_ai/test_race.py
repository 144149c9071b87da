"""The hard tier races: it reacts when the opponent has cracked its code."""

import numpy as np

from codecrack.games.alphacode.agents import AGENTS, question
from codecrack.games.alphacode.solver import CodeSpace, entropy, informative

from .helpers import duel


def dullest_question(view, alive):
    """The least informative question that still tells something."""
    space = CodeSpace.for_view(view)
    counts = space.counts(alive)
    return question(space, int(np.argmin(np.where(informative(counts), entropy(counts), np.inf))))


def cracked(first):
    """A duel where seat 1 (medium) has just cracked seat 0's code; seat 0 asked dull questions."""
    game, hunter, watcher = duel(first=first), AGENTS["medium"](seed=3), AGENTS["hard"](seed=0)
    while len(watcher.exposure.update(game.view(0))) > 1:
        mover = min(game.to_move)
        view = game.view(mover)
        game.apply(mover, hunter.act(view) if mover == 1 else dullest_question(view, watcher.knowledge.update(view)))
    assert game.to_move == {0}
    return game


def test_hard_guesses_at_once_when_the_second_player_is_about_to_win():
    game = cracked(first=0)
    agent = AGENTS["hard"](seed=1)
    assert len(agent.knowledge.update(game.view(0))) > 2
    assert agent.act(game.view(0))["type"] == "declare"


def test_solo_hard_ignores_the_race():
    game = cracked(first=0)
    assert AGENTS["hard"](seed=1, solo=True).act(game.view(0))["type"] in ("count", "filled")


def test_with_a_final_chance_coming_hard_asks_the_most_splitting_question():
    game = cracked(first=1)
    agent = AGENTS["hard"](seed=1)
    alive = agent.knowledge.update(game.view(0))
    action = agent.act(game.view(0))
    space = CodeSpace.for_view(game.view(0))
    parts = np.count_nonzero(space.counts(alive), axis=1)
    assert action["type"] in ("count", "filled") and parts[space.question_index(action)] == parts.max() > 2

"""The tiers play every phase of both modes to the end, with legal moves only."""

import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.core.runner import run_game
from codecrack.games.alphacode.agents import AGENTS
from codecrack.games.alphacode.codes import check_code, parse_code

from .helpers import CHIEF, code_action, duel, play


@pytest.mark.parametrize("names", [("easy", "medium"), ("hard", "easy"), ("medium", "hard")])
def test_duels_end_with_a_winner(names):
    game = codecrack.new_game("alphacode", players=2, seed=21)
    run_game(game, {seat: make_agent(name, "alphacode", seed=seat) for seat, name in enumerate(names)})
    assert len(game.result["winners"]) == 1


@pytest.mark.parametrize("players,names", [(3, ("hard", "medium", "easy")), (4, ("easy", "hard", "medium", "hard"))])
def test_creator_games_end_and_every_seat_acts(players, names):
    game = codecrack.new_game("alphacode", players=players, seed=8)
    run_game(game, {seat: make_agent(name, "alphacode", seed=seat) for seat, name in enumerate(names)})
    assert game.result["winners"] and game.view(None)["codes"][players - 1] is not None


def test_hard_makes_a_legal_code_of_its_own_choosing():
    game = codecrack.new_game("alphacode", players=2, seed=2)
    action = AGENTS["hard"](seed=3).act(game.view(0))
    assert action["type"] == "code"
    check_code(parse_code(action["letters"], game.sheet, game.letters), game.sheet, game.letters)


@pytest.mark.parametrize("level", sorted(AGENTS))
def test_every_tier_declares_when_sure_and_only_then(level):
    game, agent = duel(), AGENTS[level](seed=1)
    while True:
        view = game.view(0)
        action = agent.act(view)
        if action["type"] == "declare":
            break
        game.apply(0, action)
        game.apply(1, next(a for a in game.legal_actions(1) if a["type"] == "count" or a["type"] == "filled"))
    alive = agent.knowledge.alive
    assert len(alive) == 1 or (level == "hard" and len(alive) == 2)
    assert game.apply(0, action)[0]["type"] == "declared"


@pytest.mark.parametrize("level", sorted(AGENTS))
def test_the_final_chance_is_taken_with_a_candidate(level):
    game = duel(first=1)
    agents = {0: AGENTS[level](seed=2)}
    play(game, agents, 0, 2)
    game.apply(1, {"type": "declare", "letters": _code_of(game, 0)})
    assert game.view(0)["phase"] == "final"
    action = agents[0].act(game.view(0))
    assert action["type"] == "declare"
    game.apply(0, action)
    assert game.over or game.view(0)["round"] == 2


def _code_of(game, seat):
    """The code ``seat`` made (the set-up applies seat 0's code first)."""
    return game.record()["actions"][seat][1]["letters"]


def test_the_cascade_gets_a_submission_from_each_remaining_solver():
    game = codecrack.new_game("alphacode", players=3, seed=5, first=0)
    game.apply(2, code_action(CHIEF))
    agents = {seat: AGENTS["medium"](seed=seat) for seat in (0, 1)}
    while not game.over:
        seat = min(game.to_move)
        game.apply(seat, agents[seat].act(game.view(seat)))
    assert game.view(None)["phase"] == "over"
    submitted = [d["seat"] for d in game.view(None)["declarations"]]
    assert sorted(submitted) == [0, 1] and set(game.result["winners"]) == {0, 1}


def test_the_handicap_opening_is_played_with_questions():
    game = codecrack.new_game("alphacode", players=2, seed=4, handicap=3, first=1)
    run = run_game(game, {0: AGENTS["hard"](seed=0), 1: AGENTS["hard"](seed=1)})
    opening = [a for s, a in game.record()["actions"] if s == 0][1:4]
    assert all(a["type"] in ("count", "filled") for a in opening) and run.game.over


def test_a_second_round_after_a_draw_starts_from_scratch():
    game = duel(first=0)
    agents = {0: AGENTS["medium"](seed=0), 1: AGENTS["medium"](seed=1)}
    game.apply(0, {"type": "declare", "letters": _code_of(game, 1)})
    game.apply(1, {"type": "declare", "letters": _code_of(game, 0)})
    assert game.view(0)["round"] == 2
    run_game(game, agents)
    assert game.over

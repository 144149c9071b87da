"""Tournament scoring over 3 rounds; the round winner starts the next round."""

import pytest

import codecrack

from .helpers import guess, place, rigged


def test_rounds_is_one_or_three():
    with pytest.raises(codecrack.OptionError, match="rounds must be 1 or 3"):
        codecrack.new_game("coda", players=2, seed=1, rounds=2)
    assert codecrack.new_game("coda", players=2, seed=1, rounds="3").options.rounds == 3


def test_points_for_hits_exposures_the_win_and_the_winners_hidden_tiles():
    game = rigged(["b1 w7 b-", "b2 w3"], "w9", rounds=3, dashes=True)
    game.apply(0, {"type": "draw", "color": "white"})
    guess(game, 1, 0, "b2")
    assert game.scores == [1, 0]
    guess(game, 1, 1, "w3")
    assert game.legal_actions(0) == [{"type": "place", "index": 2}, {"type": "place", "index": 3}]
    events = place(game, 3)
    # 2 hits + 3 for exposing seat 1 + 5 for the round + hidden 1 + 7 + 9 (the drawn tile), dash 0
    assert game.scores == [2 + 3 + 5 + 17, 0]
    assert events[-2] == {"type": "round_over", "round": 1, "winner": 0, "points": [27, 0], "scores": [27, 0]}


def test_the_round_winner_starts_the_next_round_with_a_fresh_deal():
    game = rigged(["b2", "b1 w7"], current=1, rounds=3)
    guess(game, 0, 0, "b2")
    assert game.round == 2 and game.current == 1 and game.phase == "opening"
    assert game.history[-1] == {"type": "round", "round": 2, "first": 1}
    assert len(game.pile) == 24 and game.rows == [[], []] and game.eliminated == []
    for seat in (0, 1):
        game.apply(seat, {"type": "opening", "black": 2})
    assert game.to_move == {1} and game.view(0)["round"] == 2


def test_after_three_rounds_the_highest_total_wins_and_ties_share():
    game = rigged(["b2", "b1 W7"], current=1, rounds=3)
    game.round, game.scores = 3, [20, 11]
    guess(game, 0, 0, "b2")  # seat 1: 1 hit + 3 exposure + 5 win + hidden 1 = 10
    assert game.over and game.result["scores"] == [20, 21] and game.result["winners"] == [1]
    game = rigged(["b2", "b1 W7"], current=1, rounds=3)
    game.round, game.scores = 3, [21, 11]
    guess(game, 0, 0, "b2")
    assert game.result["winners"] == [0, 1]


def test_a_single_round_keeps_no_score():
    game = rigged(["b2", "b1"], current=1)
    guess(game, 0, 0, "b2")
    assert game.result["scores"] is None and game.view(0)["scores"] == [0, 0]


def test_a_whole_tournament_plays_three_rounds():
    import random

    from .helpers import play_randomly

    game = codecrack.new_game("coda", players=3, seed=11, rounds=3)
    play_randomly(game, random.Random(1))
    rounds = game.result["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3]
    starts = [e["first"] for e in game.history if e["type"] == "round"]
    assert starts[1:] == [r["winner"] for r in rounds[:2]]
    assert game.result["scores"] == [sum(r["points"][s] for r in rounds) for s in range(3)]

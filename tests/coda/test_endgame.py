"""Elimination, winning, and play after the tiles run out (both empty-deck rulings)."""

import pytest

import codecrack

from .helpers import guess, place, rigged, row_labels


def test_exposing_the_last_face_down_tile_puts_that_player_out():
    game = rigged(["b1 w5", "b2 W6", "b3 w4"], "b9")
    game.apply(0, {"type": "draw", "color": "black"})
    events = guess(game, 1, 0, "b2")
    assert events[-1] == {"type": "eliminated", "seat": 1}
    assert game.view(2)["eliminated"] == [1] and not game.over
    assert row_labels(game, 1) == "B2 W6"  # face-up tiles never leave the row


def test_a_player_who_is_out_can_neither_be_targeted_nor_guess():
    game = rigged(["b1 w5", "b2 W6", "b3 w4"], "b9 b10")
    game.apply(0, {"type": "draw", "color": "black"})
    guess(game, 1, 0, "b2")
    assert {a.get("target") for a in game.legal_actions(0) if a["type"] == "guess"} == {2}
    with pytest.raises(codecrack.IllegalAction, match=r"opponent still in the round: \[2\]"):
        guess(game, 1, 1, "w6")
    guess(game, 2, 0, "b7")  # a miss: the turn passes over the exposed seat 1
    place(game)
    assert game.current == 2 and 1 not in game.to_move
    game.apply(2, {"type": "draw", "color": "black"})
    guess(game, 0, 0, "w0")
    place(game)
    assert game.current == 0


def test_the_last_player_with_a_face_down_tile_wins():
    game = rigged(["b1 w5", "B2 w6"], "b9")
    game.apply(0, {"type": "draw", "color": "black"})
    events = guess(game, 1, 1, "w6")
    assert [e["type"] for e in events] == ["guess", "eliminated"]
    assert not game.over and game.phase == "place" and game.to_move == {0}  # the winner places its tile
    assert [e["type"] for e in place(game)] == ["insert", "round_over"]
    hit = next(i for i, e in enumerate(game.history) if e["type"] == "guess")
    assert game.over and game.result == {
        "winners": [0],
        "scores": None,
        "rounds": [{"round": 1, "winner": 0, "points": [0, 0]}],
        "decisive": [hit],
    }
    assert row_labels(game, 0) == "b1 w5 b9"  # the winner's drawn tile joins the row face down


def test_the_end_reveals_the_winners_face_down_tiles_to_everyone():
    game = rigged(["b1 w5", "B2 w6"], "b9")
    game.apply(0, {"type": "draw", "color": "black"})
    guess(game, 1, 1, "w6")
    assert game.view(1)["rows"][0] == [
        {"id": i, "color": c, "revealed": False, "value": None} for i, c in enumerate(["black", "white"])
    ]  # hidden mid-game
    place(game)
    for seat in (0, 1, None):
        winner_row = game.view(seat)["rows"][0]
        assert [(t["value"], t["revealed"]) for t in winner_row] == [(1, False), (5, False), (9, False)]
    assert game.to_move == frozenset() and game.view(0)["phase"] == "over"
    with pytest.raises(codecrack.IllegalAction, match="over"):
        game.apply(0, {"type": "stop"})


def test_when_the_tiles_run_out_there_is_no_draw_step_and_play_continues():
    game = rigged(["b1 w5", "b2 w6"], "b9")
    game.apply(0, {"type": "draw", "color": "black"})
    guess(game, 1, 0, "b2")
    game.apply(0, {"type": "stop"})
    place(game)
    assert game.current == 1 and game.phase == "guess" and game.view(1)["drawn"] is None
    assert game.view(1)["pile"] == {"black": 0, "white": 0}
    assert {a["type"] for a in game.legal_actions(1)} == {"guess"}
    guess(game, 0, 0, "b1")  # a hit with an empty pile: the turn goes on
    assert game.current == 1 and {"type": "stop"} in game.legal_actions(1)
    assert game.apply(1, {"type": "stop"}) == [{"type": "stop", "seat": 1}]
    assert game.current == 0 and row_labels(game, 1) == "B2 w6"


def test_empty_deck_reveal_ruling_the_guesser_turns_up_a_tile_of_their_choice():
    game = rigged(["b1 w5 b8", "b2 w6"])
    guess(game, 1, 0, "b3")
    assert game.phase == "reveal" and game.to_move == {0} and game.view(0)["phase"] == "reveal"
    assert game.legal_actions(0) == [{"type": "reveal", "index": i} for i in range(3)]
    events = game.apply(0, {"type": "reveal", "index": 2})
    assert events == [{"type": "reveal", "seat": 0, "tile": 2, "index": 2, "color": "black", "value": 8}]
    assert row_labels(game, 0) == "b1 w5 B8" and game.current == 1


def test_revealing_your_last_tile_puts_you_out_and_can_end_the_round():
    game = rigged(["B1 w5", "b2 w6"])
    guess(game, 1, 0, "b3")
    with pytest.raises(codecrack.IllegalAction, match="already face up"):
        game.apply(0, {"type": "reveal", "index": 0})
    game.apply(0, {"type": "reveal", "index": 1})
    assert game.over and game.result["winners"] == [1]


def test_empty_deck_eliminate_ruling_puts_the_wrong_guesser_out():
    game = rigged(["b1 w5", "b2 w6", "b3 w7"], empty_deck="eliminate")
    events = guess(game, 1, 0, "b4")
    assert events[-1] == {"type": "eliminated", "seat": 0}
    assert game.eliminated == [0] and game.current == 1
    assert row_labels(game, 0) == "b1 w5"  # an eliminated guesser's tiles stay face down
    assert {a["target"] for a in game.legal_actions(1)} == {2}
    guess(game, 2, 0, "b4")
    assert game.over and game.result["winners"] == [2]


def test_a_guess_on_the_last_tile_with_a_full_pile_is_only_a_miss():
    game = rigged(["b1 w5", "b2 w6"], "w9", empty_deck="eliminate")
    game.apply(0, {"type": "draw", "color": "white"})
    guess(game, 1, 0, "b4")
    place(game)
    assert game.eliminated == [] and row_labels(game, 0) == "b1 w5 W9"

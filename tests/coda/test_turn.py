"""The turn: draw, guess, continue or stop after a hit, face-up insertion after a miss."""

import pytest

import codecrack

from .helpers import guess, place, rigged, row_labels


def start(players_rows=("b1 w5", "b2 w6 b9"), pile="b3 w11", **options):
    game = rigged(list(players_rows), pile, **options)
    game.apply(0, {"type": "draw", "color": "black"})
    return game


def test_a_hit_flips_the_tile_where_it_stands_and_the_guesser_may_go_on():
    game = start()
    events = guess(game, 1, 1, "w6")
    assert events == [
        {"type": "guess", "seat": 0, "target": 1, "tile": 1, "index": 1, "color": "white", "value": 6, "hit": True}
    ]
    assert row_labels(game, 1) == "b2 W6 b9"
    assert game.current == 0 and game.phase == "guess" and game.view(0)["hits_this_turn"] == 1
    assert {"type": "stop"} in game.legal_actions(0)
    guess(game, 1, 0, "b2")
    assert row_labels(game, 1) == "B2 W6 b9" and game.current == 0


def test_after_a_hit_the_guesser_may_switch_opponents():
    game = start(("b1 w5", "b2 w6", "b7 w8"))
    guess(game, 1, 0, "b2")
    guess(game, 2, 1, "w8")
    assert row_labels(game, 2) == "b7 W8" and game.current == 0


def test_stopping_inserts_the_drawn_tile_face_down_in_its_sorted_place():
    game = start()
    guess(game, 1, 1, "w6")
    assert game.apply(0, {"type": "stop"}) == [{"type": "stop", "seat": 0}]
    assert game.view(1)["phase"] == "place" and game.to_move == {0}
    assert game.legal_actions(0) == [{"type": "place", "index": 1}]
    with pytest.raises(codecrack.IllegalAction, match="the drawn tile goes at index 1"):
        game.apply(0, {"type": "place", "index": 0})
    assert place(game) == [
        {"type": "insert", "seat": 0, "tile": 2, "index": 1, "color": "black", "revealed": False, "value": None}
    ]
    assert row_labels(game, 0) == "b1 b3 w5"
    assert game.view(1)["rows"][0][1] == {"id": 2, "color": "black", "revealed": False, "value": None}
    assert game.view(0)["rows"][0][1]["value"] == 3
    assert game.current == 1 and game.phase == "draw" and game.view(1)["hits_this_turn"] == 0


def test_no_stop_before_a_hit():
    game = start()
    assert {"type": "stop"} not in game.legal_actions(0)
    with pytest.raises(codecrack.IllegalAction, match="only after a correct guess"):
        game.apply(0, {"type": "stop"})


def test_a_miss_inserts_the_drawn_tile_face_up_and_ends_the_turn():
    game = start()
    guess(game, 1, 2, "b10")
    assert game.view(1)["drawn"] == {"color": "black", "value": 3, "revealed": True}
    assert game.view(1)["phase"] == "place" and game.legal_actions(0) == [{"type": "place", "index": 1}]
    assert place(game)[-1] == {
        "type": "insert",
        "seat": 0,
        "tile": 2,
        "index": 1,
        "color": "black",
        "revealed": True,
        "value": 3,
    }
    assert row_labels(game, 0) == "b1 B3 w5" and row_labels(game, 1) == "b2 w6 b9"
    assert game.view(1)["rows"][0][1]["value"] == 3
    assert game.current == 1 and game.phase == "draw"


def test_a_miss_after_hits_still_ends_the_turn_face_up():
    game = start()
    guess(game, 1, 0, "b2")
    guess(game, 1, 1, "w7")
    place(game)
    assert row_labels(game, 0) == "b1 B3 w5" and game.current == 1


def test_naming_the_right_value_with_the_wrong_colour_is_a_miss():
    game = start()
    events = guess(game, 1, 0, "w2")
    assert events[0]["hit"] is False and row_labels(game, 1) == "b2 w6 b9"
    place(game)
    assert row_labels(game, 0) == "b1 B3 w5"


def test_both_colours_and_every_value_are_offered_for_every_face_down_tile():
    game = start(("b1", "b2 W6"))
    guesses = [a for a in game.legal_actions(0) if a["type"] == "guess"]
    assert len(guesses) == 1 * 2 * 12 and {a["index"] for a in guesses} == {0}


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "guess", "target": 0, "index": 0, "color": "black", "value": 1}, "own tiles"),
        (
            {"type": "guess", "target": 1, "index": 5, "color": "black", "value": 1},
            "index must be a whole number from 0 to 2",
        ),
        ({"type": "guess", "target": 1, "index": 1, "color": "green", "value": 1}, "color must be"),
        ({"type": "guess", "target": 1, "index": 1, "color": "black", "value": 12}, "value must be a whole number"),
        ({"type": "guess", "target": 1, "index": 1, "color": "black", "value": "-"}, "no dashes"),
        ({"type": "guess", "target": 1, "index": 1, "color": "black", "value": True}, "value must be"),
        ({"type": "guess", "target": 3, "index": 0, "color": "black", "value": 1}, "opponent still in the round"),
        ({"type": "guess", "target": 1, "index": 0, "color": "black"}, "'guess' needs 'value'"),
        ({"type": "guess", "target": 1, "index": 0, "color": "black", "value": 2, "x": 1}, "takes no 'x'"),
        ({"type": "draw", "color": "black"}, "no draw now: the phase is guess"),
        ({"type": "fly"}, "unknown action type 'fly'"),
    ],
)
def test_bad_guesses_are_refused_with_a_reason(action, message):
    game = start(("b1", "B2 w6 b9"))
    with pytest.raises(codecrack.IllegalAction, match=message):
        game.apply(0, action)
    with pytest.raises(codecrack.IllegalAction, match="already face up"):
        guess(game, 1, 0, "b2")


def test_the_turn_passes_to_the_left():
    game = rigged(["b1", "b2", "b3"], "w1 w2 w3 w4", current=2)
    game.apply(2, {"type": "draw", "color": "white"})
    guess(game, 0, 0, "b5")
    place(game)
    assert game.current == 0

"""The advanced game: dashes go wherever their owner puts them and never move after that."""

import pytest

import codecrack
from codecrack.games.coda.rules import CodaGame

from .helpers import guess, place, rigged, row_labels, tile


def opening_with_a_dash():
    """Seat 0 opens with four black tiles, one of them the black dash."""
    game = CodaGame(players=2, seed=1, dashes=True, first=0)
    game.pile = [tile(t) for t in "b- b0 b1 b2".split()] + [t for t in game.pile if t.color == "white"]
    game.apply(0, {"type": "opening", "black": 4})
    game.apply(1, {"type": "opening", "black": 0})
    return game


def test_an_opening_dash_is_placed_by_its_owner_even_left_of_zero():
    game = opening_with_a_dash()
    assert row_labels(game, 0) == "b0 b1 b2"
    assert game.view(0)["unplaced"] == [{"color": "black", "value": "-"}]
    assert game.view(0)["phase"] == "arrange" and game.to_move == {0, 1}
    assert game.legal_actions(0) == [{"type": "ready", "dashes": [i]} for i in range(4)]
    assert game.legal_actions(1) == [{"type": "ready"}]
    assert game.apply(0, {"type": "ready", "dashes": [0]})[0] == {"type": "ready", "seat": 0}
    assert row_labels(game, 0) == "b- b0 b1 b2"
    game.apply(1, {"type": "ready"})
    assert game.phase == "draw" and game.current == 0


def test_arranging_the_opening_is_private_and_ids_follow_positions():
    game = opening_with_a_dash()
    assert game.view(1)["rows"][0] == [] and game.view(None)["rows"] == [[], []]
    game.apply(0, {"type": "ready", "dashes": [2]})
    seen = game.view(1)
    assert [(t["id"], t["color"]) for t in seen["rows"][0]] == [(i, "black") for i in range(4)]
    assert seen["history"][-1] == {"type": "deal", "seat": 0, "colors": ["black"] * 4}


def test_two_opening_dashes_go_in_one_after_the_other():
    game = CodaGame(players=2, seed=1, dashes=True, first=0)
    game.apply(1, {"type": "opening", "black": 2})
    game.pile = [tile(t) for t in "b- w- b0 w0".split()]  # all that is left for seat 0
    game.apply(0, {"type": "opening", "black": 2})
    assert [a["dashes"] for a in game.legal_actions(0)] == [[i, j] for i in range(3) for j in range(4)]
    game.apply(0, {"type": "ready", "dashes": [2, 0]})
    assert row_labels(game, 0) == "w- b0 w0 b-"


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "ready"}, "'ready' needs 'dashes'"),
        ({"type": "ready", "dashes": 0}, "dashes must list 1 index"),
        ({"type": "ready", "dashes": [0, 1]}, "dashes must list 1 index"),
        ({"type": "ready", "dashes": [4]}, "dash index 0 must be a whole number from 0 to 3"),
        ({"type": "ready", "dashes": [True]}, "dash index 0 must be"),
        ({"type": "place", "index": 0}, "no place now: the phase is arrange"),
    ],
)
def test_a_bad_arrangement_is_refused_with_a_reason(action, message):
    game = opening_with_a_dash()
    with pytest.raises(codecrack.IllegalAction, match=message):
        game.apply(0, action)
    with pytest.raises(codecrack.IllegalAction, match="'ready' takes no 'dashes'"):
        game.apply(1, {"type": "ready", "dashes": [0]})


def test_dashes_never_move_and_numbers_land_next_to_their_sorted_neighbours():
    game = rigged(["b- b3 w7", "w1 w2 w3 w4"], "b9 w0 b0", dashes=True)
    game.apply(0, {"type": "draw", "color": "black"})  # b0
    guess(game, 1, 0, "w1")
    game.apply(0, {"type": "stop"})
    place(game, 1)  # right of the dash
    game.apply(1, {"type": "draw", "color": "white"})  # w0
    guess(game, 0, 1, "b5")
    place(game)
    game.apply(0, {"type": "draw", "color": "black"})  # b9
    guess(game, 1, 2, "w2")
    game.apply(0, {"type": "stop"})
    place(game)
    assert row_labels(game, 0) == "b- b0 b3 w7 b9"
    assert [t.id for t in game.rows[0]] == [0, 3, 1, 2, 4]


def test_a_number_next_to_a_dash_goes_on_the_side_its_owner_chooses():
    # RULINGS: "A numbered tile whose sorted place is next to a dash may go on either side of it"
    for side, expected in ((1, "b3 b5 w- b8"), (2, "b3 w- b5 b8")):
        game = rigged(["b3 w- b8", "w1 w2"], dashes=True, drawn="b5")
        guess(game, 1, 0, "w1")
        game.apply(0, {"type": "stop"})
        assert game.legal_actions(0) == [{"type": "place", "index": 1}, {"type": "place", "index": 2}]
        event = place(game, side)[0]
        assert event["index"] == side and event["value"] is None and row_labels(game, 0) == expected
    game = rigged(["b- w- b3", "w1 w2"], dashes=True, drawn="b1")
    guess(game, 1, 0, "w9")  # a miss: face up, and still the owner's choice of side
    assert [a["index"] for a in game.legal_actions(0)] == [0, 1, 2]
    with pytest.raises(codecrack.IllegalAction, match="an index from 0 to 2"):
        place(game, 3)
    place(game, 1)
    assert row_labels(game, 0) == "b- B1 w- b3"


def test_a_drawn_dash_is_placed_by_the_drawer_face_down_after_stopping():
    game = rigged(["b1 w5", "w2 b6"], dashes=True, drawn="w-")
    guess(game, 1, 0, "w2")
    game.apply(0, {"type": "stop"})
    assert game.phase == "place" and game.to_move == {0}
    assert game.view(0)["phase"] == "place"
    assert game.view(0)["drawn"] == {"color": "white", "value": "-", "revealed": False}
    assert game.view(1)["drawn"] == {"color": "white", "value": None, "revealed": False}
    events = place(game, 2)
    assert events == [
        {"type": "insert", "seat": 0, "tile": 2, "index": 2, "color": "white", "revealed": False, "value": None}
    ]
    assert row_labels(game, 0) == "b1 w5 w-" and game.current == 1


def test_a_drawn_dash_goes_in_face_up_after_a_miss():
    game = rigged(["b1 w5", "w2 b6"], dashes=True, drawn="b-")
    guess(game, 1, 0, "w3")
    assert game.view(1)["drawn"] == {"color": "black", "value": "-", "revealed": True}
    place(game, 0)
    assert row_labels(game, 0) == "B- b1 w5" and game.view(1)["rows"][0][0]["value"] == "-"


def test_a_dash_drawn_on_the_round_winning_hit_goes_where_its_owner_puts_it():
    # RULINGS: "A dash goes wherever its owner puts it when it enters the row (the round-winning hit included)"
    game = rigged(["b1 w5", "B2 w6"], dashes=True, drawn="w-")
    guess(game, 1, 1, "w6")
    assert game.eliminated == [1] and not game.over
    assert game.phase == "place" and game.legal_actions(0) == [{"type": "place", "index": i} for i in range(3)]
    place(game, 0)
    assert row_labels(game, 0) == "w- b1 w5" and game.over and game.result["winners"] == [0]


def test_a_dash_is_guessed_by_colour_and_dash():
    game = rigged(["b1", "w2 b- w9"], dashes=True, drawn="w5")
    assert {"type": "guess", "target": 1, "index": 1, "color": "black", "value": "-"} in game.legal_actions(0)
    assert guess(game, 1, 1, "w-")[0]["hit"] is False
    game = rigged(["b1", "w2 b- w9"], dashes=True, drawn="w5")
    assert guess(game, 1, 1, "b-")[0]["hit"] is True

"""The advanced game: dashes go wherever their owner puts them and never move after that."""

import pytest

import codecrack
from codecrack.games.coda.rules import CodaGame

from .helpers import guess, rigged, row_labels, tile


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
    assert game.view(0)["phase"] == "place" and game.to_move == {0, 1}
    assert game.legal_actions(0) == [{"type": "place", "index": i} for i in range(4)]
    assert game.legal_actions(1) == [{"type": "ready"}]
    assert game.apply(0, {"type": "place", "index": 0}) == []
    assert row_labels(game, 0) == "b- b0 b1 b2"
    game.apply(0, {"type": "ready"})
    game.apply(1, {"type": "ready"})
    assert game.phase == "draw" and game.current == 0


def test_arranging_the_opening_is_private_until_ready():
    game = opening_with_a_dash()
    before = game.view(1)
    assert before["rows"][0] == [] and game.view(None)["rows"] == [[], []]
    game.apply(0, {"type": "place", "index": 2})
    assert game.view(1) == before
    game.apply(0, {"type": "ready"})
    seen = game.view(1)
    assert [t["color"] for t in seen["rows"][0]] == ["black"] * 4
    assert seen["history"][-1] == {"type": "deal", "seat": 0, "colors": ["black"] * 4}


def test_every_seat_confirms_its_row_so_nobody_learns_who_holds_a_dash():
    game = opening_with_a_dash()
    with pytest.raises(codecrack.IllegalAction, match="place your dash first"):
        game.apply(0, {"type": "ready"})
    with pytest.raises(codecrack.IllegalAction, match="no dash to place"):
        game.apply(1, {"type": "place", "index": 0})
    with pytest.raises(codecrack.IllegalAction, match="index must be a whole number from 0 to 3"):
        game.apply(0, {"type": "place", "index": 4})


def test_dashes_never_move_and_numbers_land_next_to_their_sorted_neighbours():
    game = rigged(["b- b3 w7", "w1 w2 w3 w4"], "b9 w0 b0", dashes=True)
    game.apply(0, {"type": "draw", "color": "black"})  # b0
    guess(game, 1, 0, "w1")
    game.apply(0, {"type": "stop"})
    game.apply(1, {"type": "draw", "color": "white"})  # w0
    guess(game, 0, 1, "b5")
    game.apply(0, {"type": "draw", "color": "black"})  # b9
    guess(game, 1, 2, "w2")
    game.apply(0, {"type": "stop"})
    assert row_labels(game, 0) == "b0 b- b3 w7 b9"
    assert [t.id for t in game.rows[0]] == [3, 0, 1, 2, 4]


def test_canonical_insertion_goes_right_after_the_largest_smaller_number():
    game = rigged(["b- b3 w7", "w1 w2"], dashes=True, drawn="b1")
    guess(game, 1, 0, "w1")
    game.apply(0, {"type": "stop"})
    assert row_labels(game, 0) == "b1 b- b3 w7"
    game = rigged(["b3 w- b8", "w1 w2"], dashes=True, drawn="b5")
    guess(game, 1, 0, "w2")
    assert row_labels(game, 0) == "b3 B5 w- b8"


def test_a_drawn_dash_is_placed_by_the_drawer_face_down_after_stopping():
    game = rigged(["b1 w5", "w2 b6"], dashes=True, drawn="w-")
    guess(game, 1, 0, "w2")
    game.apply(0, {"type": "stop"})
    assert game.phase == "place" and game.to_move == {0}
    assert game.view(0)["phase"] == "place" and game.view(0)["drawn"] == {"color": "white", "value": "-"}
    events = game.apply(0, {"type": "place", "index": 2})
    assert events == [{"type": "insert", "seat": 0, "tile": 2, "index": 2, "color": "white",
                       "revealed": False, "value": None}]
    assert row_labels(game, 0) == "b1 w5 w-" and game.current == 1


def test_a_drawn_dash_goes_in_face_up_after_a_miss():
    game = rigged(["b1 w5", "w2 b6"], dashes=True, drawn="b-")
    guess(game, 1, 0, "w3")
    game.apply(0, {"type": "place", "index": 0})
    assert row_labels(game, 0) == "B- b1 w5" and game.view(1)["rows"][0][0]["value"] == "-"


def test_a_dash_is_guessed_by_colour_and_dash():
    game = rigged(["b1", "w2 b- w9"], dashes=True, drawn="w5")
    assert {"type": "guess", "target": 1, "index": 1, "color": "black", "value": "-"} in game.legal_actions(0)
    assert guess(game, 1, 1, "w-")[0]["hit"] is False
    game = rigged(["b1", "w2 b- w9"], dashes=True, drawn="w5")
    assert guess(game, 1, 1, "b-")[0]["hit"] is True

"""Setup rules: tiles, players, hands, the opening, the starting seat, deck vs classic drawing."""

import pytest

import codecrack
from codecrack.games.coda.rules import CodaGame
from codecrack.games.coda.tiles import DASH, Tile, full_set, sort_key, sorted_places

from .helpers import rigged


def test_tiles_are_0_to_11_in_two_colours_plus_two_dashes_in_the_advanced_game():
    assert sorted((t.color, str(t.value)) for t in full_set(False)) == sorted(
        (c, str(v)) for c in ("black", "white") for v in range(12)
    )
    with_dashes = full_set(True)
    assert len(with_dashes) == 26 and [t.color for t in with_dashes if t.value == DASH] == ["black", "white"]


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    with pytest.raises(codecrack.OptionError, match="2-4 players"):
        codecrack.new_game("coda", players=players, seed=1)


@pytest.mark.parametrize("players, hand", [(2, 4), (3, 4), (4, 3)])
@pytest.mark.parametrize("draw", ["classic", "deck"])
def test_hand_is_four_tiles_or_three_with_four_players(players, hand, draw):
    game = CodaGame(players=players, seed=2, draw=draw)
    for seat in range(players):
        if game.phase == "opening":
            game.apply(seat, {"type": "opening", "black": 1})
    assert [len(row) for row in game.rows] == [hand] * players
    assert len(game.pile) == 24 - hand * players


def test_classic_opening_is_simultaneous_and_each_seat_picks_its_colour_mix():
    game = CodaGame(players=3, seed=4)
    assert game.phase == "opening" and game.to_move == {0, 1, 2}
    assert game.legal_actions(1) == [{"type": "opening", "black": k} for k in range(5)]
    game.apply(1, {"type": "opening", "black": 3})
    assert game.to_move == {0, 2}
    assert sorted(t.color for t in game.rows[1]) == ["black"] * 3 + ["white"]
    game.apply(0, {"type": "opening", "black": 0})
    game.apply(2, {"type": "opening", "black": 4})
    assert [t.color for t in game.rows[0]] == ["white"] * 4 and [t.color for t in game.rows[2]] == ["black"] * 4
    assert game.phase == "draw"


def test_opening_mix_is_limited_by_the_tiles_left():
    game = CodaGame(players=2, seed=4)
    game.pile = [t for t in game.pile if t.color == "white" or t.value == 0]
    assert game.legal_actions(0) == [{"type": "opening", "black": 0}, {"type": "opening", "black": 1}]
    with pytest.raises(codecrack.IllegalAction, match="black must be a whole number from 0 to 1"):
        game.apply(0, {"type": "opening", "black": 2})


def test_starting_tiles_are_sorted_black_left_of_white_on_equal_values():
    for seed in range(10):
        game = CodaGame(players=4, seed=seed, draw="deck")
        for row in game.rows:
            assert [sort_key(t) for t in row] == sorted(sort_key(t) for t in row)
    assert sorted_places([Tile("black", 5)], Tile("white", 5)) == range(1, 2)
    assert sorted_places([Tile("white", 5)], Tile("black", 5)) == range(0, 1)


def test_starting_seat_comes_from_the_seed_or_the_first_option():
    starts = {CodaGame(players=3, seed=seed).current for seed in range(30)}
    assert starts == {0, 1, 2}
    assert CodaGame(players=3, seed=8).current == CodaGame(players=3, seed=8).current
    assert {CodaGame(players=3, seed=seed, first=2).current for seed in range(5)} == {2}


def test_deck_mode_has_no_opening_and_draws_the_top_tile():
    game = CodaGame(players=2, seed=3, draw="deck", first=1)
    assert game.phase == "draw" and game.to_move == {1}
    assert game.view(0)["pile"] == {"total": 16}
    assert game.legal_actions(1) == [{"type": "draw"}]
    game = rigged(["b1", "w2"], "b5 w9", draw="deck")
    with pytest.raises(codecrack.IllegalAction, match="takes no 'color'"):
        game.apply(0, {"type": "draw", "color": "black"})
    game.apply(0, {"type": "draw"})
    assert (game.drawn.color, game.drawn.value) == ("white", 9)
    assert game.view(1)["drawn"] == {"color": "white", "value": None, "revealed": False}  # the back shows the colour


def test_classic_drawing_picks_a_colour_with_tiles_left():
    game = rigged(["b1", "w2"], "b5 b7 w9")
    assert game.view(0)["pile"] == {"black": 2, "white": 1}
    game.apply(0, {"type": "draw", "color": "white"})
    assert (game.drawn.color, game.drawn.value) == ("white", 9)
    game = rigged(["b1", "w2"], "b5")
    assert game.legal_actions(0) == [{"type": "draw", "color": "black"}]
    with pytest.raises(codecrack.IllegalAction, match="no white tiles are left"):
        game.apply(0, {"type": "draw", "color": "white"})
    with pytest.raises(codecrack.IllegalAction, match="color must be 'black' or 'white'"):
        game.apply(0, {"type": "draw", "color": "red"})


def test_backs_show_colours_to_everyone_but_values_only_to_the_owner():
    game = rigged(["b1 W4", "w2 b8"], "b5")
    game.apply(0, {"type": "draw", "color": "black"})
    mine, theirs, spectator = game.view(0), game.view(1), game.view(None)
    assert [t["value"] for t in mine["rows"][0]] == [1, 4] and [t["value"] for t in mine["rows"][1]] == [None, None]
    assert [t["color"] for t in theirs["rows"][0]] == ["black", "white"]
    assert [t["value"] for t in theirs["rows"][0]] == [None, 4]
    assert [t["value"] for row in spectator["rows"] for t in row] == [None, 4, None, None]
    assert mine["drawn"] == {"color": "black", "value": 5, "revealed": False}
    assert theirs["drawn"] == spectator["drawn"] == {"color": "black", "value": None, "revealed": False}

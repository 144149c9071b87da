"""The simple cracking sheet used by the terminal: per-symbol candidates from one view."""

from codecrack.games.coding.crack_sheet import candidates

from .helpers import play_rounds, rigged


def test_candidates_cross_out_by_data_cards_cannot_hacks_and_known_cards():
    game = rigged(["F98", "D57", "A01"], mode="speed", pile=["B", 2, "C", 3, 4, "E", 6])
    game.sheets[1].data = ["A-B", "20-39"]
    game.sheets[1].cannot = [["C-D", "40-59"]]
    game.sheets[1].place({"id": 12, "position": "x2", "values": [0, 2, 4, 6, 8]}, False)
    view = game.view(0)
    assert candidates(view, 1) == {"letter": ["C", "D"], "x1": [4, 5], "x2": [1, 3, 5, 7]}
    assert candidates(view, 0) == {"letter": ["F"], "x1": [9], "x2": [8]}  # own code


def test_candidates_use_revealed_and_table_cards():
    game = rigged(["F98", "D57", "A01"], mode="speed", pile=["B", 2, "C", 3, 4, "E", 6])
    play_rounds(game)
    for seat in (0, 1, 2):
        game.apply(seat, {"type": "pass"})
    game.sheets[2].revealed = ["x1"]
    view = game.view(0)
    assert view["table"] == {"letters": ["B", "C"], "digits": [2]}
    sheet = candidates(view, 1)
    assert set(sheet["letter"]) <= {"A", "D", "E"} and 2 not in sheet["x1"] + sheet["x2"]
    assert 0 not in sheet["x1"] + sheet["x2"]  # seat 2's x1 is face up
    assert candidates(view, 2)["x1"] == [0] and 0 not in candidates(view, 2)["x2"]

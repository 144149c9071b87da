"""Dealing, ordering, data cards, hack cards and the passing rules of the hacking rounds."""

import pytest

import codecrack
from codecrack import IllegalAction

from .helpers import hack_turn, play_rounds, rigged, snapshot


def test_deal_gives_each_seat_a_letter_and_two_different_digits_without_replacement():
    game = codecrack.new_game("coding", players=4, seed=3)
    owns = [game.view(s)["own"] for s in range(4)]
    letters = [o["letter"] for o in owns]
    digits = [d for o in owns for d in o["digits"]]
    assert len(set(letters)) == 4 and len(set(digits)) == 8
    assert game.view(None)["code_pile"] == 2 + 2
    assert game.view(0)["sheets"][1]["code"] is None


def test_owner_chooses_digit_order_simultaneously_and_others_learn_only_that_it_happened():
    game = codecrack.new_game("coding", players=3, seed=5, first=0)
    assert game.phase == "order" and game.to_move == {0, 1, 2}
    a, b = game.view(1)["own"]["digits"]
    assert game.legal_actions(1) == [{"type": "order", "x1": a, "x2": b}, {"type": "order", "x1": b, "x2": a}]
    before = game.view(0)
    events = game.apply(1, {"type": "order", "x1": b, "x2": a})
    assert events == [{"type": "ordered", "seat": 1}]
    assert game.view(1)["own"]["code"] == f"{game.view(1)['own']['letter']}{b}{a}"
    assert game.view(0)["sheets"] == before["sheets"] and game.to_move == {0, 2}
    with pytest.raises(IllegalAction, match="may not act now"):
        game.apply(1, {"type": "order", "x1": a, "x2": b})
    with pytest.raises(IllegalAction, match="own two number cards"):
        game.apply(0, {"type": "order", "x1": 10, "x2": 11})
    for seat in (0, 2):
        game.apply(seat, game.legal_actions(seat)[0])
    assert (game.phase, game.step, game.turn, game.round) == ("hacking", "data", 0, 1)


def test_data_card_must_truly_rule_out_the_taker():
    game = rigged(["F98", "D57", "A01"])
    takable = [a["card"] for a in game.legal_actions(0)]
    assert takable == ["A-B", "C-D", "00-19", "20-39", "40-59", "60-79"]  # not E-F, not 80-99
    with pytest.raises(IllegalAction, match="does not rule out"):
        game.apply(0, {"type": "take", "card": "80-99"})
    with pytest.raises(IllegalAction, match="no data card"):
        game.apply(0, {"type": "take", "card": "90-99"})
    with pytest.raises(IllegalAction, match="may not declare 'cannot take'"):
        game.apply(0, {"type": "cannot"})
    assert game.apply(0, {"type": "take", "card": "20-39"})[0] == {"type": "took", "seat": 0, "card": "20-39"}
    assert game.view(1)["sheets"][0]["data"] == ["20-39"] and game.view(1)["data_stacks"]["20-39"] == 1


def test_data_stacks_are_shared_never_a_held_type_and_two_players_use_one_of_each():
    game = rigged(["F98", "D57"])
    assert set(game.view(0)["data_stacks"].values()) == {1}
    game.apply(0, {"type": "take", "card": "20-39"})
    game.apply(0, {"type": "give", "card": game.row[0], "to": 1})
    with pytest.raises(IllegalAction, match="20-39 stack is empty"):
        game.apply(1, {"type": "take", "card": "20-39"})
    assert rigged(["F98", "D57", "A01"]).view(0)["data_stacks"]["A-B"] == 2
    game = rigged(["F98", "D57", "A01"])
    game.sheets[0].data.append("A-B")
    with pytest.raises(IllegalAction, match="already hold a A-B"):
        game.apply(0, {"type": "take", "card": "A-B"})


def test_cannot_take_is_a_public_declaration_of_the_types_on_offer():
    game = rigged(["F98", "D57", "A01"])
    for kind in ("A-B", "C-D", "00-19", "20-39", "40-59", "60-79"):
        game.stacks[kind] = 0
    assert game.legal_actions(0) == [{"type": "cannot"}]
    with pytest.raises(IllegalAction, match="stack is empty"):
        game.apply(0, {"type": "take", "card": "A-B"})
    events = game.apply(0, {"type": "cannot"})
    assert events == [{"type": "cannot", "seat": 0, "offered": ["E-F", "80-99"]}]
    assert game.view(2)["sheets"][0]["cannot"] == [["E-F", "80-99"]]
    assert game.step == "give"


def test_data_step_is_skipped_when_no_data_card_is_left():
    game = rigged(["F98", "D57", "A01"])
    game.apply(0, {"type": "take", "card": "A-B"})
    game.stacks = {kind: 0 for kind in game.stacks}
    game.apply(0, {"type": "give", "card": game.row[0], "to": 1})
    assert game.turn == 1 and game.step == "give"
    assert {a["type"] for a in game.legal_actions(1)} == {"give"}


def test_receiver_answers_truthfully_green_or_red_and_row_refills():
    game = rigged(["F98", "D57", "A01"], row=[4, 6, 0, 1, 2])
    deck_before = list(game.hack_deck)
    game.apply(0, {"type": "take", "card": "20-39"})
    events = game.apply(0, {"type": "give", "card": 4, "to": 1})  # x1 even; D57 has x1 = 5
    assert events[0] == {
        "type": "hacked",
        "seat": 0,
        "to": 1,
        "green": False,
        "card": {"id": 4, "position": "x1", "values": [0, 2, 4, 6, 8]},
    }
    assert game.view(2)["sheets"][1]["hacks"] == [{"card": events[0]["card"], "green": False}]
    assert game.row == [6, 0, 1, 2, deck_before[-1]] and len(game.hack_deck) == 14
    game.apply(1, {"type": "take", "card": "A-B"})
    game.apply(1, {"type": "give", "card": 6, "to": 2})  # x1 in 7,8,9? A01: no
    game.apply(2, {"type": "take", "card": "C-D"})
    assert game.apply(2, {"type": "give", "card": 0, "to": 0})[0]["green"] is False  # F not in A,B,C


def test_play_goes_on_with_the_row_when_the_deck_is_empty():
    game = rigged(["F98", "D57", "A01"])
    game.hack_deck = []
    hack_turn(game, 0, 1)
    assert len(game.row) == 4 and game.view(0)["hack_deck"] == 0
    hack_turn(game, 1, 2)
    assert len(game.row) == 3 and game.turn == 2


def test_no_passing_to_yourself_or_to_a_seat_that_already_received_this_round():
    game = rigged(["F98", "D57", "A01", "B23"])
    hack_turn(game, 0, 1)
    game.apply(1, {"type": "take", "card": "A-B"})
    with pytest.raises(IllegalAction, match="to yourself"):
        game.apply(1, {"type": "give", "card": game.row[0], "to": 1})
    game.apply(1, {"type": "give", "card": game.row[0], "to": 2})
    game.apply(2, game.legal_actions(2)[0])
    with pytest.raises(IllegalAction, match="seat 1 has already received"):
        game.apply(2, {"type": "give", "card": game.row[0], "to": 1})
    assert {a["to"] for a in game.legal_actions(2)} == {3}


def test_a_hack_card_is_named_by_its_integer_id():
    game = rigged(["F98", "D57", "A01"])
    game.apply(0, game.legal_actions(0)[0])
    before = snapshot(game)
    for card in (float(game.row[0]), str(game.row[0])):
        with pytest.raises(IllegalAction, match="is not in the face-up row"):
            game.apply(0, {"type": "give", "card": card, "to": 1})
    assert snapshot(game) == before


def test_no_passing_back_except_with_two_players():
    game = rigged(["F98", "D57", "A01"])
    hack_turn(game, 0, 1)
    game.apply(1, game.legal_actions(1)[0])
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="seat 0 just passed a hack card to you"):
        game.apply(1, {"type": "give", "card": game.row[0], "to": 0})
    assert snapshot(game) == before
    two = rigged(["F98", "D57"])
    hack_turn(two, 0, 1)
    two.apply(1, two.legal_actions(1)[0])
    assert {a["to"] for a in two.legal_actions(1)} == {0}
    two.apply(1, {"type": "give", "card": two.row[0], "to": 0})
    assert two.round == 2


def test_first_one_holder_receives_last_and_then_the_card_passes_left():
    game = rigged(["F98", "D57", "A01", "B23"], first=2)
    assert game.turn == 2 and game.view(0)["first_one"] == 2
    hack_turn(game, 2, 0)
    hack_turn(game, 0, 3)
    game.apply(3, game.legal_actions(3)[0])
    with pytest.raises(IllegalAction, match="holds The First One card and must be the last"):
        game.apply(3, {"type": "give", "card": game.row[0], "to": 2})
    game.apply(3, {"type": "give", "card": game.row[0], "to": 1})
    game.apply(1, game.legal_actions(1)[0])
    assert {a["to"] for a in game.legal_actions(1)} == {2}
    game.apply(1, {"type": "give", "card": game.row[0], "to": 2})
    assert (game.round, game.turn, game.view(0)["first_one"]) == (2, 3, 3)
    assert game.view(0)["received"] == []


def test_four_rounds_give_every_player_four_hack_cards_then_the_mode_phase():
    game = rigged(["F98", "D57", "A01", "B23"])
    play_rounds(game)
    sheets = game.view(None)["sheets"]
    assert [len(s["hacks"]) for s in sheets] == [4, 4, 4, 4]
    assert all(len(s["data"]) + len(s["cannot"]) == 4 for s in sheets)
    assert (game.phase, game.turn, game.holder) == ("decoding", 0, 0)  # rotated 4 times: back to 0


def test_hacking_rounds_end_early_when_no_hack_card_is_left(tmp_path):
    deck = tmp_path / "tiny.json"
    deck.write_text('[{"position": "letter", "values": ["A"]}, {"position": "x2", "values": [1, 2]}]')
    game = rigged(["F98", "D57", "A01"], deck=str(deck))
    assert len(game.row) == 2
    hack_turn(game, 0, 1)
    hack_turn(game, 1, 2)
    events = game.apply(2, game.legal_actions(2)[0])  # the data step still happens
    assert [e["type"] for e in events] == ["took", "no_hack_cards", "phase"]
    assert game.phase == "decoding" and game.turn == 0

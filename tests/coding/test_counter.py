"""Counter and counter-revised: the decoding phase after 4 hacking rounds."""

import pytest

import codecrack
from codecrack import IllegalAction

from .helpers import play_rounds, rigged, snapshot

CODES = ["F98", "D57", "A01"]


@pytest.fixture(params=["counter", "counter-revised"])
def decoding(request):
    game = rigged(CODES, mode=request.param)
    play_rounds(game)
    return game


def test_decoding_starts_with_the_first_one_holder_after_its_last_rotation(decoding):
    assert decoding.phase == "decoding" and decoding.step == "choose"
    assert decoding.turn == decoding.holder == 4 % 3
    types = {a["type"] for a in decoding.legal_actions(1)}
    assert "decode" in types and "stop" not in types


def test_hack_then_the_turn_passes_left(decoding):
    seat = decoding.turn
    decoding.apply(seat, decoding.legal_actions(seat)[0])
    assert decoding.step == "give"
    to = decoding.legal_actions(seat)[0]["to"]
    decoding.apply(seat, decoding.legal_actions(seat)[0])
    assert decoding.turn == (seat + 1) % 3 and decoding.step == "choose"
    assert len(decoding.sheets[to].hacks) == 5


def test_no_more_than_five_hack_cards_per_player(decoding):
    decoding.sheets[2].hacks.append(decoding.sheets[2].hacks[0])  # seat 2 now holds 5
    decoding.stacks = {kind: 0 for kind in decoding.stacks}
    assert {a["to"] for a in decoding.legal_actions(1) if a["type"] == "give"} == {0}
    with pytest.raises(IllegalAction, match="seat 2 already holds 5 hack cards"):
        decoding.apply(1, {"type": "give", "card": decoding.row[0], "to": 2})


def test_no_pass_back_in_the_decoding_phase_with_three_players(decoding):
    decoding.stacks = {kind: 0 for kind in decoding.stacks}
    decoding.apply(1, {"type": "give", "card": decoding.row[0], "to": 2})
    assert decoding.turn == 2
    with pytest.raises(IllegalAction, match="just passed a hack card to you"):
        decoding.apply(2, {"type": "give", "card": decoding.row[0], "to": 1})


def test_give_directly_when_no_data_card_is_left_and_take_otherwise(decoding):
    with pytest.raises(IllegalAction, match="data cards remain"):
        decoding.apply(1, {"type": "give", "card": decoding.row[0], "to": 2})
    decoding.stacks = {kind: 0 for kind in decoding.stacks}
    with pytest.raises(IllegalAction, match="no data card is left"):
        decoding.apply(1, {"type": "cannot"})


def nothing_to_hack(game):
    game.stacks = {kind: 0 for kind in game.stacks}
    game.row = []


def pass_turn(game):
    return game.apply(game.turn, {"type": "cannot"})


def test_hack_is_always_offered_and_with_nothing_to_hack_it_is_only_a_pass(decoding):
    """2.2: decoding is never forced; HACK is then only "cannot take"."""
    nothing_to_hack(decoding)
    legal = decoding.legal_actions(1)
    assert legal[0] == {"type": "cannot"} and {a["type"] for a in legal[1:]} == {"decode"}
    assert pass_turn(decoding) == [{"type": "cannot", "seat": 1, "offered": []}]
    view = decoding.view(0)
    assert (view["turn"], view["step"], view["passes_in_row"]) == (2, "choose", 1)
    assert view["sheets"][1]["cannot"] == []  # an empty declaration says nothing
    with pytest.raises(IllegalAction, match="not in the face-up row"):
        decoding.apply(2, {"type": "give", "card": 0, "to": 0})


def test_a_player_who_cannot_take_but_can_pass_a_hack_card_is_not_passing(decoding):
    decoding.stacks = {kind: 0 for kind in decoding.stacks}
    with pytest.raises(IllegalAction, match="pass a hack card directly"):
        decoding.apply(1, {"type": "cannot"})
    decoding.apply(1, {"type": "give", "card": decoding.row[0], "to": 2})
    assert decoding.view(0)["passes_in_row"] == 0


def stalemate_game(players_codes=CODES, pile=("B", 2, "C", 3, 4, "E", 6)):
    game = rigged(list(players_codes), mode="counter", pile=list(pile))
    play_rounds(game)
    nothing_to_hack(game)
    return game


def test_when_every_remaining_player_passes_in_a_row_the_leftover_code_cards_are_dealt():
    game = stalemate_game()
    assert game.turn == 1
    pass_turn(game)
    pass_turn(game)
    events = pass_turn(game)
    assert events[-1] == {"type": "dealt", "letters": ["B", "C"], "digits": [2]}
    view = game.view(2)
    assert view["table"] == {"letters": ["B", "C"], "digits": [2]} and view["passes_in_row"] == 0
    assert (view["turn"], view["step"]) == (1, "choose")  # play goes on, left of the last passer
    # with 2-3 players the deals repeat while cards remain
    assert [pass_turn(game)[-1]["type"] for _ in range(3)] == ["cannot", "cannot", "dealt"]
    assert [pass_turn(game)[-1]["type"] for _ in range(3)] == ["cannot", "cannot", "dealt"]
    assert game.view(0)["code_pile"] == 0 and game.view(0)["stalemate_deals"] == 3


def test_anything_but_a_pass_starts_the_count_again():
    game = stalemate_game()
    pass_turn(game)
    pass_turn(game)
    game.apply(0, {"type": "decode", "target": 1, "code": "D75"})  # wrong: a change
    game.apply(0, {"type": "reveal", "card": "x2"})
    assert game.view(0)["passes_in_row"] == 0
    pass_turn(game)
    pass_turn(game)
    assert game.view(0)["code_pile"] == 7
    assert pass_turn(game)[-1]["type"] == "dealt"


def test_then_every_remaining_player_reveals_a_number_card_and_at_last_someone_must_decode():
    game = stalemate_game(["F98", "D57", "A01", "B23"], pile=["C", 4, "E", 6])
    for _ in range(4):
        events = pass_turn(game)
    assert events[-1]["type"] == "dealt"
    for _ in range(4):  # a 4-player game deals once
        events = pass_turn(game)
    assert events[-1] == {"type": "stalemate_reveal", "seats": [0, 1, 2, 3]}
    assert game.step == "stalemate" and game.to_move == {0, 1, 2, 3}
    assert game.legal_actions(2) == [{"type": "reveal", "card": "x1"}, {"type": "reveal", "card": "x2"}]
    for seat in (0, 1, 2):
        game.apply(seat, {"type": "reveal", "card": "x1"})
    assert game.view(3)["sheets"][0]["revealed"]["x1"] is None  # secret until all have chosen
    events = game.apply(3, {"type": "reveal", "card": "x1"})
    assert [e["value"] for e in events if e["type"] == "revealed"] == [9, 5, 0, 2]
    assert (game.step, game.turn, game.to_move) == ("choose", 0, {0})  # the First One holder again
    for _ in range(4):
        pass_turn(game)
    for seat in range(4):
        game.apply(seat, {"type": "reveal", "card": "x2"})
    # nothing more can be shown: HACK is no longer offered and the player on turn must decode
    assert {a["type"] for a in game.legal_actions(game.turn)} == {"decode"}
    with pytest.raises(IllegalAction, match="decode"):
        pass_turn(game)


def test_a_wrong_decode_with_every_code_card_face_up_puts_the_decoder_out():
    game = stalemate_game(["F98", "D57"], pile=[])
    game.apply(0, {"type": "decode", "target": 1, "code": "A57"})
    game.apply(0, {"type": "reveal", "card": "letter"})
    for card in ("x1", "x2"):
        pass_turn(game)
        pass_turn(game)
        for seat in (0, 1):
            game.apply(seat, {"type": "reveal", "card": card})
    assert game.view(1)["sheets"][0]["revealed"] == {"letter": "F", "x1": 9, "x2": 8}
    game.apply(1, {"type": "decode", "target": 0, "code": "F89"})
    game.apply(1, {"type": "reveal", "card": "letter"})
    events = game.apply(0, {"type": "decode", "target": 1, "code": "C57"})
    assert events[-2] == {"type": "out", "seat": 0, "why": "wrong decode with no face-down card left", "code": "F98"}
    assert game.result["winners"] == [1]


PATIENCE = ["cannot", "take", "give", "order", "reveal", "stop", "decode"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_who_pass_whenever_they_may_still_end_within_the_declared_length(players):
    game = codecrack.new_game("coding", players=players, seed=players, mode="counter")
    while not game.over:
        seat = min(game.to_move)
        legal = game.legal_actions(seat)
        game.apply(seat, min(legal, key=lambda a: PATIENCE.index(a["type"])))
    kinds = [event["type"] for event in game.history]
    assert "dealt" in kinds and "stalemate_reveal" in kinds
    assert len(game.record()["actions"]) <= type(game).nature(players, mode="counter").max_length


def test_hack_is_only_the_data_card_when_nobody_can_receive(decoding):
    decoding.row = []
    seat = decoding.turn
    take = next(a for a in decoding.legal_actions(seat) if a["type"] == "take")
    decoding.apply(seat, take)
    assert decoding.turn == (seat + 1) % 3 and decoding.step == "choose"


def test_correct_decode_puts_the_target_out_and_the_decoder_may_continue_or_stop(decoding):
    events = decoding.apply(1, {"type": "decode", "target": 2, "code": "a01"})
    assert events[0] == {"type": "decode", "seat": 1, "target": 2, "code": "A01", "correct": True}
    assert events[1]["type"] == "out" and events[1]["code"] == "A01"
    sheet = decoding.view(0)["sheets"][2]
    assert sheet["out"] and sheet["revealed"] == {"letter": "A", "x1": 0, "x2": 1}
    assert decoding.turn == 1 and decoding.may_stop
    assert {"type": "stop"} in decoding.legal_actions(1)
    with pytest.raises(IllegalAction, match="already out"):
        decoding.apply(1, {"type": "decode", "target": 2, "code": "A01"})
    decoding.apply(1, {"type": "stop"})
    assert decoding.turn == 0 and not decoding.may_stop
    with pytest.raises(IllegalAction, match="only right after a correct decode"):
        decoding.apply(0, {"type": "stop"})


def test_continuing_after_a_correct_decode_and_winning_as_the_last_player(decoding):
    decoding.apply(1, {"type": "decode", "target": 2, "code": "A01"})
    events = decoding.apply(1, {"type": "decode", "target": 0, "code": "F98"})
    assert events[-1]["type"] == "over"
    assert decoding.result["winners"] == [1] and decoding.result["reason"] == "last player remaining"
    assert decoding.result["codes"] == CODES and decoding.view(2)["sheets"][0]["code"] == "F98"


def test_wrong_decode_reveals_one_own_card_of_choice_then_the_turn_passes(decoding):
    events = decoding.apply(1, {"type": "decode", "target": 0, "code": "F89"})
    assert events == [{"type": "decode", "seat": 1, "target": 0, "code": "F89", "correct": False}]
    assert decoding.step == "penalty" and decoding.to_move == {1}
    assert decoding.legal_actions(1) == [{"type": "reveal", "card": p} for p in ("letter", "x1", "x2")]
    assert decoding.apply(1, {"type": "reveal", "card": "x2"}) == [
        {"type": "revealed", "seat": 1, "card": "x2", "value": 7}
    ]
    assert decoding.view(0)["sheets"][1]["revealed"] == {"letter": None, "x1": None, "x2": 7}
    assert decoding.view(0)["sheets"][1]["wrong_guesses"] == [{"target": 0, "code": "F89"}]
    assert decoding.turn == 2 and decoding.step == "choose"


def test_third_wrong_decode_puts_the_decoder_out(decoding):
    for reveal in ("x1", "letter", None):
        decoding.turn, decoding.step = 1, "choose"
        events = decoding.apply(1, {"type": "decode", "target": 0, "code": "A23"})
        if reveal is not None:
            with pytest.raises(IllegalAction, match="already face up" if reveal == "letter" else "reveal one of"):
                decoding.apply(1, {"type": "reveal", "card": "x1" if reveal == "letter" else "x9"})
            decoding.apply(1, {"type": "reveal", "card": reveal})
    assert events[-1] == {"type": "out", "seat": 1, "why": "third wrong decode", "code": "D57"}
    assert decoding.sheets[1].out and decoding.turn == 2
    assert decoding.view(0)["sheets"][1]["wrong_decodes"] == 3


def test_decode_errors_change_nothing(decoding):
    before = snapshot(decoding)
    for bad, message in [
        ({"type": "decode", "target": 1, "code": "F98"}, "your own code"),
        ({"type": "decode", "target": 5, "code": "F98"}, "seat from 0 to 2"),
        ({"type": "decode", "target": 0, "code": "G98"}, "letter A-F"),
        ({"type": "decode", "target": 0, "code": "F99"}, "different cards"),
        ({"type": "decode", "target": 0}, "needs 'code'"),
        ({"type": "decode", "target": 0, "code": "F98", "x": 1}, "takes no 'x'"),
        ({"type": "slap"}, "not possible now"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            decoding.apply(1, bad)
    assert snapshot(decoding) == before


def test_a_bad_hack_after_a_correct_decode_keeps_the_right_to_stop(decoding):
    decoding.apply(1, {"type": "decode", "target": 2, "code": "A01"})
    before = snapshot(decoding)
    with pytest.raises(IllegalAction, match="no data card"):
        decoding.apply(1, {"type": "take", "card": "XX"})
    assert snapshot(decoding) == before and decoding.may_stop


def test_two_players_may_pass_back_in_the_decoding_phase():
    game = rigged(["F98", "D57"], mode="counter")
    play_rounds(game)
    game.stacks = {kind: 0 for kind in game.stacks}
    game.apply(0, {"type": "give", "card": game.row[0], "to": 1})
    assert game.turn == 1
    game.apply(1, {"type": "give", "card": game.row[0], "to": 0})
    assert len(game.sheets[0].hacks) == 5 and game.turn == 0


def test_a_seat_that_is_out_is_skipped_and_cannot_receive():
    game = rigged(["F98", "D57", "A01", "B23"], mode="counter")
    play_rounds(game)
    game.apply(0, {"type": "decode", "target": 1, "code": "D57"})
    game.stacks = {kind: 0 for kind in game.stacks}
    assert {a["to"] for a in game.legal_actions(0) if a["type"] == "give"} == {2, 3}
    with pytest.raises(IllegalAction, match="seat 1 is out"):
        game.apply(0, {"type": "give", "card": game.row[0], "to": 1})
    game.apply(0, {"type": "give", "card": game.row[0], "to": 3})
    assert game.turn == 2

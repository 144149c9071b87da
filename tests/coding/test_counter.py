"""Counter and counter-revised: the decoding phase after 4 hacking rounds."""

import pytest

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
    decoding.sheets[2].hacks.append(decoding.sheets[2].hacks[0])       # seat 2 now holds 5
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


def test_must_decode_when_there_is_nothing_left_to_hack(decoding):
    decoding.stacks = {kind: 0 for kind in decoding.stacks}
    decoding.row = []
    assert {a["type"] for a in decoding.legal_actions(1)} == {"decode"}
    with pytest.raises(IllegalAction, match="must decode"):
        decoding.apply(1, {"type": "cannot"})


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
        {"type": "revealed", "seat": 1, "card": "x2", "value": 7}]
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
    for bad, message in [({"type": "decode", "target": 1, "code": "F98"}, "your own code"),
                         ({"type": "decode", "target": 5, "code": "F98"}, "seat from 0 to 2"),
                         ({"type": "decode", "target": 0, "code": "G98"}, "letter A-F"),
                         ({"type": "decode", "target": 0, "code": "F99"}, "different cards"),
                         ({"type": "decode", "target": 0}, "needs 'code'"),
                         ({"type": "decode", "target": 0, "code": "F98", "x": 1}, "takes no 'x'"),
                         ({"type": "slap"}, "not possible now")]:
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

"""Speed mode: slapping, answering, hesitation, eliminations and the stalemate rules."""

import pytest

from codecrack import IllegalAction
from codecrack.core.runner import next_actor
from codecrack.games.coding.agents import AGENTS

from .helpers import play_rounds, rigged


def cracking(codes, pile=None, **options):
    game = rigged(codes, mode="speed", pile=pile, **options)
    play_rounds(game)
    return game


def pass_all(game):
    events = []
    for seat in sorted(game.to_move):
        events += game.apply(seat, {"type": "pass"})
    return events


def test_after_four_rounds_every_seat_may_slap_and_the_first_one_lies_in_the_middle():
    game = cracking(["F98", "D57", "A01"])
    assert (game.phase, game.step, game.round) == ("cracking", "open", 4)
    assert game.to_move == {0, 1, 2} and game.view(0)["first_one"] is None
    assert game.view(0)["hack_limit"] is None
    assert game.legal_actions(2) == [{"type": "slap"}, {"type": "pass"}]


def test_first_slap_wins_the_right_to_answer_and_a_correct_answer_wins():
    game = cracking(["F98", "D57", "A01"])
    assert game.apply(2, {"type": "slap"}) == [{"type": "slap", "seat": 2}]
    assert game.to_move == {2} and game.view(0)["slapper"] == 2
    with pytest.raises(IllegalAction, match="may not act now"):
        game.apply(0, {"type": "slap"})
    assert {"type": "timeout"} in game.legal_actions(2)
    assert len([a for a in game.legal_actions(2) if a["type"] == "decode"]) == 2 * 540
    game.apply(2, {"type": "decode", "target": 1, "code": "D57"})
    decisive = game.history[game.result["decisive"][-1]]
    assert game.result["winners"] == [2] and "cracked a code" in game.result["reason"]
    assert decisive == {"type": "decode", "seat": 2, "target": 1, "code": "D57", "correct": True}


def test_wrong_answer_puts_the_slapper_out_with_the_code_revealed():
    game = cracking(["F98", "D57", "A01"])
    game.apply(0, {"type": "pass"})
    game.apply(2, {"type": "slap"})
    events = game.apply(2, {"type": "decode", "target": 0, "code": "F89"})
    assert events[-1] == {"type": "out", "seat": 2, "why": "wrong answer", "code": "A01"}
    assert game.view(0)["sheets"][2]["revealed"] == {"letter": "A", "x1": 0, "x2": 1}
    assert game.to_move == {0, 1} and game.step == "open"  # passes are forgotten after a change
    game.apply(1, {"type": "slap"})
    game.apply(1, {"type": "decode", "target": 0, "code": "E98"})
    assert game.result["winners"] == [0] and game.result["reason"] == "last player remaining"


def test_hesitation_timeout_is_a_foul_that_puts_the_slapper_out():
    game = cracking(["F98", "D57", "A01"])
    game.apply(1, {"type": "slap"})
    assert game.apply(1, {"type": "timeout"})[0] == {"type": "timeout", "seat": 1}
    assert game.sheets[1].out and game.to_move == {0, 2}
    game.apply(0, {"type": "slap"})
    with pytest.raises(IllegalAction, match="already out"):
        game.apply(0, {"type": "decode", "target": 1, "code": "D57"})


def test_a_pass_is_a_standing_wait_and_a_seat_that_passed_may_still_slap():
    """RULINGS: "A pass only says 'I am waiting'. A player who passed may still slap at any moment"."""
    game = cracking(["F98", "D57", "A01"])
    game.apply(0, {"type": "pass"})
    assert game.to_move == {0, 1, 2} and game.awaited == {1, 2} and game.view(1)["passed"] == [0]
    assert game.legal_actions(0) == [{"type": "slap"}]
    with pytest.raises(IllegalAction, match="already passing"):
        game.apply(0, {"type": "pass"})
    game.apply(1, {"type": "pass"})
    assert game.step == "open" and game.view(0)["code_pile"] == 7  # seat 2 still thinks: no stalemate
    assert game.apply(0, {"type": "slap"}) == [{"type": "slap", "seat": 0}]
    assert game.to_move == game.awaited == {0} and game.view(2)["slapper"] == 0
    game.apply(0, {"type": "decode", "target": 1, "code": "D57"})
    assert game.result["winners"] == [0]


def test_the_stalemate_comes_only_when_every_remaining_seat_is_passing_at_once():
    game = cracking(["F98", "D57", "A01"], pile=["B", 2, "C", 3])
    for seat in (2, 0):
        assert game.apply(seat, {"type": "pass"}) == [{"type": "pass", "seat": seat}]
    assert game.apply(1, {"type": "pass"})[-1] == {"type": "dealt", "letters": ["B", "C"], "digits": [2]}
    assert game.view(0)["passed"] == [] and game.awaited == {0, 1, 2}  # the deal is a change


def test_hosts_ask_no_bot_that_is_passing_until_the_table_changes():
    game = cracking(["F98", "D57", "A01"])
    agents = {seat: AGENTS["medium"](seed=seat, reaction_delay=delay) for seat, delay in enumerate([1, 2, 3])}
    game.apply(0, {"type": "pass"})
    assert next_actor(game, agents) == 1  # seat 0 reacts fastest but already waits


def test_stalemate_deals_one_leftover_card_per_player_face_up_and_repeats_with_three_players():
    game = cracking(["F98", "D57", "A01"], pile=["B", 2, "C", 3, 4, "E", 6])
    events = pass_all(game)
    assert events[-1] == {"type": "dealt", "letters": ["B", "C"], "digits": [2]}
    assert game.view(0)["table"] == {"letters": ["B", "C"], "digits": [2]}
    assert game.to_move == {0, 1, 2} and game.view(0)["code_pile"] == 4
    assert pass_all(game)[-1] == {"type": "dealt", "letters": ["E"], "digits": [3, 4]}
    assert pass_all(game)[-1] == {"type": "dealt", "letters": [], "digits": [6]}
    assert game.view(0)["stalemate_deals"] == 3 and game.view(0)["code_pile"] == 0


def test_two_player_game_deals_two_cards_each_stalemate():
    game = cracking(["F98", "D57"])
    assert game.view(0)["code_pile"] == 4 + 6
    pass_all(game)
    pass_all(game)
    assert len(game.table_letters + game.table_digits) == 4


def test_four_player_game_deals_once_then_every_player_reveals_a_number_card():
    game = cracking(["F98", "D57", "A01", "B23"], pile=["C", 4, "E", 6])
    assert pass_all(game)[-1] == {"type": "dealt", "letters": ["C", "E"], "digits": [4, 6]}
    events = pass_all(game)
    assert events[-1] == {"type": "stalemate_reveal", "seats": [0, 1, 2, 3]}
    assert game.step == "stalemate" and game.legal_actions(0) == [
        {"type": "reveal", "card": "x1"},
        {"type": "reveal", "card": "x2"},
    ]
    with pytest.raises(IllegalAction, match="reveal one of x1, x2"):
        game.apply(0, {"type": "reveal", "card": "letter"})
    assert game.apply(0, {"type": "reveal", "card": "x2"}) == [{"type": "chose_reveal", "seat": 0}]
    # the choice stays secret until every player has chosen
    assert game.view(1)["sheets"][0]["revealed"]["x2"] is None and game.view(1)["own_reveal"] is None
    assert game.view(0)["own_reveal"] == "x2" and game.to_move == {1, 2, 3}
    for seat in (1, 2):
        game.apply(seat, {"type": "reveal", "card": "x1"})
    events = game.apply(3, {"type": "reveal", "card": "x1"})
    assert [e["value"] for e in events if e["type"] == "revealed"] == [8, 5, 0, 2]
    assert game.step == "open" and game.to_move == {0, 1, 2, 3}


def test_when_nothing_more_can_be_shown_passing_is_over_and_someone_must_slap():
    game = cracking(["F98", "D57"], pile=[])
    for _ in range(2):
        pass_all(game)
        for seat in (0, 1):
            game.apply(seat, game.legal_actions(seat)[0])
    assert game.legal_actions(0) == [{"type": "slap"}]
    with pytest.raises(IllegalAction, match="must|slap and answer"):
        game.apply(0, {"type": "pass"})


def test_eliminated_players_take_no_part_in_stalemate_deals():
    game = cracking(["F98", "D57", "A01"], pile=["B", 2, "C", 3])
    game.apply(0, {"type": "slap"})
    game.apply(0, {"type": "timeout"})
    assert pass_all(game)[-1] == {"type": "dealt", "letters": ["B"], "digits": [2]}


def test_a_slap_cancels_the_slappers_pass_for_every_viewer_while_it_answers():
    """Issue 25 §4.12: seat 0 passes, seat 1 passes, seat 0 slaps: ``passed`` is ``[1]``, not ``[0, 1]``."""
    game = cracking(["F98", "D57", "A01"])
    game.apply(0, {"type": "pass"})
    game.apply(1, {"type": "pass"})
    game.apply(0, {"type": "slap"})
    assert [game.view(seat)["passed"] for seat in (0, 1, 2)] == [[1], [1], [1]]
    assert game.view(None)["passed"] == [1]

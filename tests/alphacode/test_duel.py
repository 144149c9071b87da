"""The 2-player rules, each played out with known codes."""

import pytest

import codecrack
from codecrack.games.alphacode.codes import code_mask, parse_code
from codecrack.games.alphacode.sheet import Sheet, answer

from .helpers import CODE_A, CODE_B, CODE_C, ask, code_action, declare, duel, letters, spend_turn


def test_both_players_make_codes_at_the_same_time_in_secret():
    game = codecrack.new_game("alphacode", players=2, seed=3, first=1)
    assert game.to_move == {0, 1}
    assert game.legal_actions(0) == [{"type": "random_code"}]
    events = game.apply(1, code_action(CODE_B))
    assert events == [{"type": "code_made", "seat": 1, "round": 1}]
    assert game.to_move == {0} and game.view(0)["code"] is None and game.view(0)["coded"] == [False, True]
    with pytest.raises(codecrack.IllegalAction, match="make your code first"):
        game.apply(0, ask("count", "OB"))
    game.apply(0, {"type": "random_code"})
    assert game.view(0)["phase"] == "play" and game.to_move == {1}
    assert game.view(1)["code"] == letters(CODE_B)


def test_the_first_player_comes_from_the_seed_when_not_given():
    firsts = {codecrack.new_game("alphacode", players=2, seed=s).view(None)["first"] for s in range(12)}
    assert firsts == {0, 1}


def test_turns_alternate_and_answers_come_from_the_opponents_code():
    game = duel(first=1)
    events = game.apply(1, ask("count", "OB"))
    expected = answer(
        Sheet(),
        {"type": "count", "row": "O", "column": "B"},
        code_mask(parse_code(letters(CODE_A), Sheet(), "abcdefghij")),
    )
    assert events[0]["answer"] == expected == 3 and events[0]["target"] == 0
    assert game.to_move == {0}
    assert game.apply(0, ask("filled", "QC"))[0]["answer"] is True  # chief: h's lower left
    assert game.apply(1, ask("filled", "NB"))[0]["answer"] is True  # a's top bar
    assert game.apply(0, ask("filled", "PF"))[0]["answer"] is False
    assert [q["answer"] for q in game.view(0)["questions"]] == [3, True, True, False]


@pytest.mark.parametrize(
    "question",
    [ask("count", "NA"), ask("filled", "OD"), ask("count", "QI"), ask("filled", "ZB"), {"type": "count", "row": "O"}],
)
def test_bad_questions_do_not_use_the_turn(question):
    game = duel()
    with pytest.raises(codecrack.IllegalAction):
        game.apply(0, question)
    assert game.to_move == {0} and game.view(0)["questions"] == []


def test_asking_again_repeats_the_answer_without_using_the_turn():
    game = duel()
    game.apply(0, ask("count", "OD"))
    game.apply(1, ask("count", "OD"))  # the same zone on the other code is a new question
    with pytest.raises(codecrack.IllegalAction, match="already asked: the answer was 3"):
        game.apply(0, ask("count", "od"))
    assert game.to_move == {0}
    assert ask("count", "OD") not in game.legal_actions(0)


def test_a_wrong_declaration_is_incorrect_and_play_goes_on():
    game = duel()
    events = game.apply(0, declare(CODE_C))
    assert events[0] == {"type": "declared", "seat": 0, "correct": False, "letters": letters(CODE_C), "round": 1}
    assert not game.over and game.to_move == {1} and game.view(1)["misses"] == [1, 0]


def test_a_second_wrong_declaration_loses_at_once():
    game = duel()
    game.apply(0, declare(CODE_C))
    spend_turn(game, 1)
    game.apply(0, declare(CODE_A))
    assert game.result["winners"] == [1] and game.result["reason"] == "two wrong declarations"


def test_a_declaration_that_is_not_a_legal_code_is_refused_without_using_the_turn():
    game = duel()
    with pytest.raises(codecrack.IllegalAction, match="touch"):
        game.apply(0, declare("a@B b@D h@H f@J i@PK"))
    with pytest.raises(codecrack.IllegalAction, match="ambiguous"):
        game.apply(0, declare("e@NA i@PC d@NE c@NI b@NK"))
    assert game.to_move == {0} and game.view(0)["misses"] == [0, 0]


def test_a_correct_declaration_by_the_second_player_wins():
    game = duel(first=0)
    spend_turn(game, 0)
    game.apply(1, declare(CODE_A))
    assert game.result["winners"] == [1]


def test_a_correct_first_player_gives_the_second_a_final_declaration_and_a_miss_loses():
    game = duel(first=0)
    events = game.apply(0, declare(CODE_B))
    assert [e["type"] for e in events] == ["declared", "final_chance"]
    assert game.to_move == {1} and game.view(1)["phase"] == "final"
    assert game.legal_actions(1) == [{"type": "pass"}]
    with pytest.raises(codecrack.IllegalAction, match="only a declaration or a pass"):
        game.apply(1, ask("count", "OB"))
    game.apply(1, declare(CODE_C))
    assert game.result["winners"] == [0]


def test_passing_the_final_declaration_lets_the_first_player_win():
    game = duel(first=1, code0=CODE_A, code1=CODE_B)
    game.apply(1, declare(CODE_A))
    game.apply(0, {"type": "pass"})
    assert game.result["winners"] == [1]


def test_pass_is_only_for_final_declarations():
    game = duel()
    with pytest.raises(codecrack.IllegalAction, match="final declaration"):
        game.apply(0, {"type": "pass"})


def test_a_draw_starts_a_new_round_with_fresh_codes_until_someone_wins():
    game = duel(first=0)
    game.apply(0, ask("count", "OB"))
    game.apply(1, ask("count", "QD"))
    game.apply(0, declare(CODE_B))
    events = game.apply(1, declare(CODE_A))
    assert [e["type"] for e in events] == ["declared", "draw", "new_round"]
    view = game.view(0)
    assert not game.over and view["round"] == 2 and view["phase"] == "code"
    assert view["first"] == 1 and view["code"] is None and view["questions"] == [] and view["misses"] == [0, 0]
    assert view["past_rounds"][0]["codes"] == [letters(CODE_A), letters(CODE_B)]
    assert game.to_move == {0, 1}
    game.apply(0, code_action(CODE_C))
    game.apply(1, code_action(CODE_A))
    assert game.to_move == {1}
    spend_turn(game, 1)
    game.apply(0, declare(CODE_A))  # seat 0 is second this round: a correct declaration wins
    declared = len(game.history) - 2  # the winning declaration, then game_over
    assert game.result == {
        "winners": [0],
        "scores": None,
        "rounds": 2,
        "reason": "the second player declared correctly",
        "decisive": [declared],
        "questions": [0, 1],
    }
    assert game.history[declared]["type"] == "declared" and game.history[declared]["correct"]


def test_handicap_gives_seat_0_opening_questions_in_a_row():
    game = duel(first=1, handicap=2)
    view = game.view(0)
    assert view["phase"] == "handicap" and view["handicap_left"] == 2 and game.to_move == {0}
    assert all(a["type"] in ("count", "filled") for a in game.legal_actions(0))
    with pytest.raises(codecrack.IllegalAction, match="handicap questions come first"):
        game.apply(0, declare(CODE_B))
    game.apply(0, ask("count", "OB"))
    assert game.to_move == {0}
    game.apply(0, ask("count", "OD"))
    assert game.view(0)["phase"] == "play" and game.to_move == {1}  # then the first player


@pytest.mark.parametrize("first", [0, 1])
def test_handicap_is_exactly_n_questions_then_turns_alternate_whoever_starts(first):
    """001: "ask 1-3 consecutive questions at the start before taking alternating turns"."""
    game = duel(first=first, handicap=2)
    game.apply(0, ask("count", "OB"))
    game.apply(0, ask("count", "OD"))
    view = game.view(0)
    assert view["phase"] == "play" and view["handicap_left"] == 0 and game.to_move == {1}
    spend_turn(game, 1)
    assert game.to_move == {0}
    spend_turn(game, 0)
    assert game.to_move == {1} and game.view(1)["first"] == first


def test_with_a_handicap_the_first_player_keeps_the_first_players_declaration_rule():
    game = duel(first=0, handicap=1)
    game.apply(0, ask("count", "OB"))
    spend_turn(game, 1)
    events = game.apply(0, declare(CODE_B))  # seat 0 is still the first player
    assert [e["type"] for e in events] == ["declared", "final_chance"] and game.to_move == {1}


@pytest.mark.parametrize("options", [{"handicap": 4}, {"handicap": -1}, {"creator": 1}, {"letters": 15}])
def test_bad_duel_options_are_refused(options):
    with pytest.raises(codecrack.OptionError):
        codecrack.new_game("alphacode", players=2, seed=1, **options)


def test_the_declare_action_is_offered_once_the_answers_settle_every_square():
    game = duel(first=0)
    squares = [a for a in game.legal_actions(0) if a["type"] == "filled"]
    for question in squares:
        assert not any(a["type"] == "declare" for a in game.legal_actions(0))
        game.apply(0, question)
        spend_turn(game, 1)
    assert {"type": "declare", "letters": letters(CODE_B)} in game.legal_actions(0)

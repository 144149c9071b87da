"""Three or more players: one code creator, solvers sharing answers, the submission cascade."""

import pytest

import codecrack

from .helpers import CODE_A, CODE_B, CODE_C, ask, circle, code_action, declare, letters, spend_turn


def test_only_the_creator_makes_a_code_and_it_is_the_last_seat_by_default():
    game = codecrack.new_game("alphacode", players=4, seed=2)
    view = game.view(None)
    assert view["creator"] == 3 and view["mode"] == "creator" and game.to_move == {3}
    game.apply(3, code_action(CODE_A))
    assert game.view(3)["code"] == letters(CODE_A) and game.view(0)["code"] is None
    assert game.to_move <= {0, 1, 2} and game.view(3)["target"] is None and game.view(1)["target"] == 3


def test_the_creator_option_picks_the_seat_and_first_may_not_be_the_creator():
    game = circle(3, creator=0, first=1)
    assert game.view(None)["creator"] == 0 and game.to_move == {1}
    with pytest.raises(codecrack.OptionError, match="first must be a solver"):
        codecrack.new_game("alphacode", players=3, seed=1, creator=1, first=1)
    with pytest.raises(codecrack.OptionError, match="creator must be a seat"):
        codecrack.new_game("alphacode", players=3, seed=1, creator=3)
    with pytest.raises(codecrack.OptionError, match="2-player rule"):
        codecrack.new_game("alphacode", players=3, seed=1, handicap=1)


def test_a_drawn_first_player_is_always_a_solver():
    firsts = {codecrack.new_game("alphacode", players=3, seed=s).view(None)["first"] for s in range(10)}
    assert firsts == {0, 1}


def test_solvers_take_turns_and_share_every_answer():
    game = circle(4, first=1)
    order = []
    for _ in range(4):
        (seat,) = game.to_move
        order.append(seat)
        spend_turn(game, seat)
    assert order == [1, 2, 0, 1]
    questions = game.view(0)["questions"]
    assert len(questions) == 4 and all(game.view(s)["questions"] == questions for s in range(4))
    repeated = questions[0]["question"]
    with pytest.raises(codecrack.IllegalAction, match="already asked"):
        game.apply(2, repeated)  # seat 1 asked it; everyone heard the answer


def test_a_wrong_submission_is_incorrect_and_private_to_the_creator():
    game = circle(4)
    events = game.apply(0, declare(CODE_B))
    assert events == [{"type": "declared", "seat": 0, "correct": False, "round": 1}]
    assert not game.over and game.to_move == {1}
    assert game.view(0)["declarations"][0]["letters"] == letters(CODE_B)
    assert game.view(3)["declarations"][0]["letters"] == letters(CODE_B)
    assert game.view(1)["declarations"] == [] and game.view(None)["declarations"] == []
    assert "letters" not in game.view(1)["history"][-1]


def test_a_second_wrong_submission_eliminates_and_the_turns_skip_that_solver():
    game = circle(4)
    game.apply(0, declare(CODE_B))
    spend_turn(game, 1)
    spend_turn(game, 2)
    events = game.apply(0, declare(CODE_C))
    assert [e["type"] for e in events] == ["declared", "eliminated"]
    assert game.view(1)["eliminated"] == [0] and game.to_move == {1}
    spend_turn(game, 1)
    spend_turn(game, 2)
    assert game.to_move == {1}


def test_the_creator_wins_when_every_solver_is_eliminated():
    game = circle(3)
    for _ in range(2):
        game.apply(0, declare(CODE_B))
        game.apply(1, declare(CODE_C))
    assert game.result["winners"] == [2] and game.result["reason"] == "every solver was eliminated"
    assert game.view(0)["codes"][2] == letters(CODE_A)


def test_a_correct_submission_lets_every_other_remaining_solver_submit_once():
    game = circle(5)  # solvers 0-3, creator 4
    game.apply(0, declare(CODE_B))
    spend_turn(game, 1)
    spend_turn(game, 2)
    spend_turn(game, 3)
    game.apply(0, declare(CODE_C))  # seat 0 is eliminated
    events = game.apply(1, declare(CODE_A))
    assert events[-1] == {"type": "last_submissions", "seats": [2, 3], "round": 1}
    assert game.to_move == {2, 3} and game.view(2)["phase"] == "cascade"
    assert {"type": "pass"} in game.legal_actions(3)
    with pytest.raises(codecrack.IllegalAction):
        game.apply(3, ask("count", "OB"))
    game.apply(3, declare(CODE_A))
    assert game.to_move == {2} and not game.over
    game.apply(2, declare(CODE_B))
    assert game.result["winners"] == [1, 3]


def test_a_correct_submission_with_no_one_left_to_answer_ends_the_game():
    game = circle(3)
    game.apply(0, declare(CODE_B))
    spend_turn(game, 1)
    game.apply(0, declare(CODE_C))
    game.apply(1, declare(CODE_A))
    assert game.result["winners"] == [1]


def test_passing_in_the_cascade_gives_up_the_submission():
    game = circle(3)
    game.apply(0, declare(CODE_A))
    game.apply(1, {"type": "pass"})
    assert game.result["winners"] == [0]

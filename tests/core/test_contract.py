import json

import pytest

import codecrack
from codecrack.agents import RandomAgent
from codecrack.core import registry
from codecrack.core.runner import run_game

from .toy_game import ToyGame


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "tests.core.toy_game:ToyGame")


def test_unknown_game_lists_valid_games():
    with pytest.raises(codecrack.OptionError, match="valid games: .*coda"):
        codecrack.new_game("chess", players=2, seed=1)


def test_unknown_option_lists_valid_options():
    with pytest.raises(codecrack.OptionError, match="valid options: first, target"):
        codecrack.new_game("toy", players=2, seed=1, colour="red")


def test_bad_option_value_and_player_count():
    with pytest.raises(codecrack.OptionError, match="target"):
        codecrack.new_game("toy", players=2, seed=1, target="many")
    with pytest.raises(codecrack.OptionError, match="2-3 players"):
        codecrack.new_game("toy", players=5, seed=1)
    with pytest.raises(codecrack.OptionError, match="first must be a seat"):
        codecrack.new_game("toy", players=2, seed=1, first=2)


@pytest.mark.parametrize("junk", [None, 3, "add", {}, {"type": "add"}, {"type": "add", "amount": 3}, {"type": "jump"}])
def test_junk_actions_raise_and_change_nothing(junk):
    game = codecrack.new_game("toy", players=2, seed=4)
    seat = min(game.to_move)
    before = (json.dumps(game.view(seat)), json.dumps(game.record()))
    with pytest.raises(codecrack.IllegalAction):
        game.apply(seat, junk)
    assert (json.dumps(game.view(seat)), json.dumps(game.record())) == before


def test_wrong_seat_and_bad_seat_are_illegal():
    game = codecrack.new_game("toy", players=2, seed=4, first=0)
    with pytest.raises(codecrack.IllegalAction, match="may not act now"):
        game.apply(1, {"type": "add", "amount": 1})
    with pytest.raises(codecrack.IllegalAction, match="no seat 7"):
        game.apply(7, {"type": "add", "amount": 1})


def test_record_replays_to_identical_state_and_is_json():
    game = codecrack.new_game("toy", players=3, seed=9, target=7)
    run_game(game, {s: RandomAgent(seed=s) for s in range(3)})
    record = json.loads(json.dumps(game.record()))
    again = codecrack.replay(record)
    assert again.result == game.result
    assert [again.view(s) for s in range(3)] == [game.view(s) for s in range(3)]
    assert record["options"] == {"target": 7}


def test_game_over_refuses_actions_and_has_no_movers():
    game = codecrack.new_game("toy", players=2, seed=1, target=1)
    game.apply(min(game.to_move), {"type": "add", "amount": 1})
    assert game.over and game.to_move == frozenset()
    with pytest.raises(codecrack.IllegalAction, match="over"):
        game.apply(0, {"type": "add", "amount": 1})


def test_view_carries_legal_actions_only_for_the_mover():
    game = ToyGame(players=2, seed=1, first=1)
    assert game.view(1)["legal_actions"] and not game.view(0)["legal_actions"]
    assert game.view(None)["secret"] is None


def test_optional_module_is_none_only_when_the_module_itself_is_missing(tmp_path, monkeypatch):
    from codecrack.core.registry import optional_module

    assert optional_module("codecrack.terminal.no_such_game") is None
    (tmp_path / "broken_screen.py").write_text("import no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency"):
        optional_module("broken_screen")

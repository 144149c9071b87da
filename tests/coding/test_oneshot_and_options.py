"""One-shot scoring, the no-notes option, custom hack decks and option errors."""

import json

import pytest
from rich.console import Console

import codecrack
from codecrack import IllegalAction, OptionError
from codecrack.games.coding import screen as coding_screen
from codecrack.games.coding.cards import load_deck

from .helpers import play_rounds, rigged, snapshot


def answering(codes):
    game = rigged(codes, mode="one-shot")
    play_rounds(game)
    return game


def test_one_shot_plays_five_rounds_using_the_whole_deck_with_four_players():
    game = answering(["F98", "D57", "A01", "B23"])
    assert game.round == 5 and game.phase == "answering" and game.to_move == {0, 1, 2, 3}
    assert [len(s.hacks) for s in game.sheets] == [5] * 4
    assert game.row == [] and game.hack_deck == []


def test_answers_stay_secret_until_everyone_has_written_then_score_by_position():
    game = answering(["F98", "D57", "A01"])
    game.apply(0, {"type": "answer", "codes": {"1": "D75"}})  # letter only: 1 point
    assert game.view(0)["own_answers"] == {"1": "D75"} and game.view(1)["own_answers"] == {}
    assert game.view(1)["answered"] == {"0": [1], "1": [], "2": []}
    with pytest.raises(IllegalAction, match="no answer left to write for seat 1"):
        game.apply(0, {"type": "answer", "codes": {"1": "D57"}})
    with pytest.raises(IllegalAction, match="no answer left to write for seat 0"):
        game.apply(0, {"type": "answer", "codes": {"0": "F98"}})
    game.apply(0, {"type": "answer", "codes": {"2": "A01"}})  # 3 points
    assert game.to_move == {1, 2}
    game.apply(1, {"type": "answer", "codes": {"0": "F98", "2": "A01"}})  # 6 points
    events = game.apply(2, {"type": "answer", "codes": {"0": "E97", "1": "C50"}})  # 1 + 1
    assert events[-1]["type"] == "over"
    assert game.result["scores"] == [4, 6, 2] and game.result["winners"] == [1]
    assert game.result["answers"]["2"] == {"0": "E97", "1": "C50"}


def test_one_shot_ties_share_the_win_and_two_players_score_at_most_three():
    game = answering(["F98", "D57"])
    game.apply(0, {"type": "answer", "codes": {"1": "D57"}})
    game.apply(1, {"type": "answer", "codes": {"0": "F98"}})
    assert game.result["scores"] == [3, 3] and game.result["winners"] == [0, 1]


def test_one_shot_answer_errors():
    game = answering(["F98", "D57", "A01"])
    for bad, message in [
        ({"type": "answer", "codes": {}}, "maps opponent seats"),
        ({"type": "answer", "codes": ["D57"]}, "maps opponent seats"),
        ({"type": "answer", "codes": {"7": "D57"}}, "seat from 0 to 2"),
        ({"type": "answer", "codes": {"1": "D5"}}, "like 'D57'"),
        ({"type": "answer"}, "needs 'codes'"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            game.apply(0, bad)


def test_no_notes_views_still_carry_everything_and_the_terminal_hides_the_spoken_facts():
    game = rigged(["F98", "D57", "A01"], notes=False)
    for kind in ("A-B", "C-D", "00-19", "20-39", "40-59", "60-79"):
        game.stacks[kind] = 0
    game.apply(0, {"type": "cannot"})
    game.apply(0, {"type": "give", "card": game.row[0], "to": 1})
    view = game.view(2)
    assert view["history"] and view["sheets"][0]["cannot"] == [["E-F", "80-99"]]
    assert len(view["sheets"][1]["hacks"]) == 1 and view["options"]["notes"] is False
    screen = Console(width=200, record=True)
    screen.print(coding_screen.render(view))
    assert "cannot[" not in screen.export_text() and "possible letter" not in screen.export_text()
    with_notes = rigged(["F98", "D57", "A01"])
    with_notes.stacks = dict(game.stacks)
    with_notes.apply(0, {"type": "cannot"})
    assert with_notes.view(2)["sheets"][0]["cannot"] == [["E-F", "80-99"]]
    assert with_notes.view(2)["history"]


def test_a_custom_deck_file_is_loaded_and_used(tmp_path):
    cards = [{"position": "x2", "values": [d]} for d in range(10)]
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(cards))
    game = codecrack.new_game("coding", players=2, seed=1, deck=str(path))
    assert all(card["position"] == "x2" for card in game.view(0)["hack_row"])
    assert game.view(0)["hack_deck"] == 5 and game.view(0)["options"]["deck"] == str(path)
    assert codecrack.replay(game.record()).view(0) == game.view(0)


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "cannot read"),
        ("[]", "non-empty JSON list"),
        ('[{"position": "x3", "values": [1]}]', "hack card 0: position"),
        ('[{"position": "letter", "values": ["A"]}, {"position": "x1", "values": ["A"]}]', "hack card 1: values"),
        ('[{"position": "x1", "values": [1, 1]}]', "values must be different"),
        ('[{"position": "x1"}]', "hack card 0: expected"),
    ],
)
def test_bad_deck_files_raise_option_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(OptionError, match=message):
        codecrack.new_game("coding", players=2, seed=1, deck=str(path))


def test_missing_deck_file_and_bad_options():
    with pytest.raises(OptionError, match="cannot read hack deck"):
        codecrack.new_game("coding", players=2, seed=1, deck="/no/such/deck.json")
    with pytest.raises(OptionError, match="mode"):
        codecrack.new_game("coding", players=2, seed=1, mode="virus")
    with pytest.raises(OptionError, match="answer_window"):
        codecrack.new_game("coding", players=2, seed=1, answer_window=0)
    with pytest.raises(OptionError, match="2-4 players"):
        codecrack.new_game("coding", players=5, seed=1)


def test_options_from_text_and_defaults():
    game = codecrack.new_game("coding", players=3, seed=1, mode="speed", notes="false", answer_window="2.5")
    assert game.view(0)["options"] == {
        "first": None,
        "mode": "speed",
        "deck": None,
        "answer_window": 2.5,
        "notes": False,
    }
    assert codecrack.new_game("coding", players=2, seed=1).options.mode == "counter-revised"
    assert load_deck()[0] == {"id": 0, "position": "letter", "values": ["A", "B", "C"]}


@pytest.mark.parametrize(
    "junk",
    [
        {"type": "take"},
        {"type": "take", "card": 3},
        {"type": "take", "card": "A-B", "extra": 1},
        {"type": "give", "card": 99, "to": 1},
        {"type": "give", "card": True, "to": 1},
        {"type": "order", "x1": 1, "x2": 2},
        {"type": "fly"},
        {"type": "reveal", "card": "x1"},
        {"type": "cannot", "please": True},
    ],
)
def test_bad_input_raises_and_changes_nothing(junk):
    game = rigged(["F98", "D57", "A01"])
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(0, junk)
    assert snapshot(game) == before


def test_one_shot_maximum_is_nine_points_with_four_players():
    codes = ["F98", "D57", "A01", "B23"]
    game = answering(codes)
    for seat in range(4):
        game.apply(seat, {"type": "answer", "codes": {str(t): codes[t] for t in range(4) if t != seat}})
    assert game.result["scores"] == [9, 9, 9, 9] and game.result["winners"] == [0, 1, 2, 3]


def test_views_are_copies_that_cannot_reach_the_game():
    game = rigged(["F98", "D57", "A01"])
    game.apply(0, {"type": "take", "card": "20-39"})
    game.apply(0, {"type": "give", "card": game.row[0], "to": 1})
    view = game.view(2)
    view["sheets"][1]["hacks"][0]["card"]["values"].append(7)
    with pytest.raises(TypeError):  # the history's events are shared, frozen (docs/engine.md)
        view["history"][-1]["green"] = "maybe"
    view["history"].append({"type": "forged"})
    view["data_stacks"]["20-39"] = 9
    assert game.view(2) != view
    assert json.loads(json.dumps(game.view(2))) == game.view(2)

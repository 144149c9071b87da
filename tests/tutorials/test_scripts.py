"""Each tutorial's script plays through on the real engine and reaches what it teaches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.core.tutorial import LEARNER, OPPONENT, Move, Read
from codecrack.games.alphacode import legal_codes
from codecrack.games.coding.crack_sheet import candidates
from codecrack.tutorials import ScriptedAgent, offered, tutorial

GAMES = ["coda", "coding", "alphacode"]
CATALOGUES = Path(__file__).resolve().parents[2] / "codecrack" / "web" / "static" / "i18n"


def new(game: str):
    script = tutorial(game)
    return script, codecrack.new_game(game, players=2, seed=script.seed, **script.options)


def play_script(game: str):
    """The game after the whole script, and the events of each scripted move."""
    script, state = new(game)
    events = []
    for move in script.moves:
        assert move.seat in state.to_move, move
        assert offered(move.action, state.legal_actions(move.seat)) or move.action["type"] == "declare", move
        events.append(state.apply(move.seat, move.action))
    return state, events


@pytest.mark.parametrize("game", GAMES)
def test_the_script_plays_through_and_every_learner_move_is_explained(game):
    script = tutorial(game)
    play_script(game)
    assert all(move.say for move in script.moves if move.seat == LEARNER)
    assert not any(move.say for move in script.moves if move.seat == OPPONENT)
    lessons = script.lessons()
    assert lessons[0]["action"] is None and lessons[-1]["action"] is None  # a welcome and a closing word
    assert [lesson["action"] for lesson in lessons if lesson["action"]] == script.seat_moves(LEARNER)
    moves = script.moves
    assert all(moves[lesson["at"]].action == lesson["action"] for lesson in lessons if lesson["action"])
    assert lessons[-1]["at"] == len(moves)  # the closing word comes once the script is played


def test_unknown_games_have_no_tutorial():
    assert tutorial("toy") is None


def test_coda_teaches_a_hit_going_on_a_miss_and_stopping():
    _, events = play_script("coda")
    guesses = [e for step in events for e in step if e["type"] == "guess" and e["seat"] == LEARNER]
    assert [g["hit"] for g in guesses] == [True, False, True]  # the first guess hits, going on misses
    inserts = [e for step in events for e in step if e["type"] == "insert" and e["seat"] == LEARNER]
    assert [i["revealed"] for i in inserts] == [True, False]  # the miss shows the drawn tile; stopping hides it
    assert any(e["type"] == "stop" for step in events for e in step)


def test_coda_teaches_the_default_tables_classic_drawing():
    """Issue 25 §4.7: the default table draws classic, so the tutorial does: the learner chooses
    the opening split, then picks the colour of every draw (both colours, once each at least)."""
    script = tutorial("coda")
    default = codecrack.new_game("coda", players=2, seed=1).options
    assert default.draw == "classic" and script.options.get("draw", default.draw) == "classic"
    learner = script.seat_moves(LEARNER)
    assert learner[0]["type"] == "opening"
    draws = [action for action in learner if action["type"] == "draw"]
    assert len(draws) >= 2 and {action.get("color") for action in draws} == {"black", "white"}
    says = [move.say for move in script.moves if move.seat == LEARNER]
    assert says[0] == "opening" and says[learner.index(draws[0])] == "draw"


def test_coda_guesses_follow_from_what_the_learner_sees():
    """The first guess is the smallest black value the learner cannot see (the leftmost tile is
    the smallest); going on names the largest one on the rightmost black tile; once black 11
    missed there, the last guess names the largest black value left on that tile."""
    script, state = new("coda")
    moves = iter(script.moves)
    guesses = []
    for move in moves:
        if move.seat == LEARNER and move.action["type"] == "guess":
            view = state.view(LEARNER)
            seen = {t["value"] for row in view["rows"] for t in row if t["color"] == "black" and t["value"] is not None}
            if view["drawn"]["color"] == "black":
                seen.add(view["drawn"]["value"])
            black = [i for i, t in enumerate(view["rows"][OPPONENT]) if t["color"] == "black"]
            guesses.append((move.action, seen, black[-1]))
        state.apply(move.seat, move.action)
    (first, seen, _), (going_on, _, rightmost), (last, seen_last, rightmost_last) = guesses
    assert first["value"] == min(set(range(12)) - seen)
    assert going_on["value"] == max(set(range(12)) - seen) == 11 and going_on["index"] == rightmost
    assert last["value"] == max(set(range(11)) - seen_last) and last["index"] == rightmost_last


def test_coding_uses_the_rulebook_codes_and_reads_green_and_red():
    state, _ = play_script("coding")
    codes = state.result["codes"]
    assert (codes[LEARNER], codes[OPPONENT]) == ("F98", "D57")
    colours = {hack["green"] for sheet in state.view(LEARNER)["sheets"] for hack in sheet["hacks"]}
    assert colours == {True, False}


def test_coding_the_decode_is_the_only_code_left_on_the_sheet():
    script, state = new("coding")
    for move in script.moves[:-1]:
        state.apply(move.seat, move.action)
    view = state.view(LEARNER)
    assert candidates(view, OPPONENT) == {"letter": ["D"], "x1": [5], "x2": [7]}
    assert {"type": "decode", "target": OPPONENT, "code": "D57"} in view["legal_actions"]


def test_alphacode_zone_o_d_answers_3_and_six_answers_leave_one_code():
    state, events = play_script("alphacode")
    answers = [e for step in events for e in step if e["type"] == "answer" and e["seat"] == LEARNER]
    assert answers[0]["question"] == {"type": "count", "row": "O", "column": "D"} and answers[0]["answer"] == 3
    assert answers[1]["question"]["type"] == "filled"
    table = legal_codes()
    left = table.consistent([{"question": a["question"], "answer": a["answer"]} for a in answers])
    assert left.sum() == 1
    assert state.result["winners"] == [LEARNER]


@pytest.mark.parametrize(
    "game, opponent_first",
    [("coda", True), ("coding", True), ("coding", False), ("alphacode", True), ("alphacode", False)],
)
def test_the_scripted_opponent_follows_the_script_whoever_acts_first(game, opponent_first):
    """In a simultaneous step the opponent may act before or after the learner: same game. (Coda's
    opening deals in the order the seats choose, so there the coach waits for the opponent.)"""
    script, state = new(game)
    played = lambda: sum(1 for seat, _ in state.record()["actions"] if seat == OPPONENT)  # noqa: E731
    agent = ScriptedAgent(script.seat_moves(OPPONENT), played, make_agent("easy", game, seed=1))
    mine = iter(script.seat_moves(LEARNER))
    while not state.over and state.record_length < len(script.moves):
        both = state.to_move == {LEARNER, OPPONENT}
        if OPPONENT in state.to_move and (opponent_first or not both):
            state.apply(OPPONENT, agent.act(state.view(OPPONENT)))
        else:
            state.apply(LEARNER, next(mine))
    expected, _ = play_script(game)
    same = lambda view: {key: value for key, value in view.items() if key != "history"}  # noqa: E731
    assert same(state.view(LEARNER)) == same(expected.view(LEARNER))


def test_after_the_script_the_opponent_plays_as_the_fallback_tier():
    script, state = new("coda")
    for move in script.moves:
        state.apply(move.seat, move.action)
    played = lambda: len(script.seat_moves(OPPONENT))  # noqa: E731
    agent = ScriptedAgent(script.seat_moves(OPPONENT), played, make_agent("easy", "coda", seed=1))
    while not state.over and OPPONENT not in state.to_move:
        state.apply(LEARNER, state.legal_actions(LEARNER)[0])
    if not state.over:
        assert agent.act(state.view(OPPONENT)) in state.legal_actions(OPPONENT)


def test_reading_steps_are_not_moves():
    assert all(isinstance(step, (Move, Read)) for game in GAMES for step in tutorial(game).script)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "th"])
def test_every_coach_text_is_in_the_catalogues(game, lang):
    catalogue = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    missing = [
        lesson["say"]
        for lesson in tutorial(game).lessons()
        if f"learn.tutorial.{game}.{lesson['say']}" not in catalogue
    ]
    assert missing == []

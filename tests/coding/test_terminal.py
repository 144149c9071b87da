"""Terminal play: rendering, parsing, the public log, and real-time speed mode with scripted input."""

import io
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from codecrack import IllegalAction
from codecrack.core.agent import Agent
from codecrack.games.coding import screen
from codecrack.terminal.human import TerminalHuman
from codecrack.terminal.play import play

from .helpers import play_rounds, rigged


def text_of(renderable) -> str:
    console = Console(file=io.StringIO(), width=200)
    console.print(renderable)
    return console.file.getvalue()


@pytest.mark.parametrize(
    "command, action",
    [
        ("order 9 8", {"type": "order", "x1": 9, "x2": 8}),
        ("order 98", {"type": "order", "x1": 9, "x2": 8}),
        ("take 20-39", {"type": "take", "card": "20-39"}),
        ("take a-b", {"type": "take", "card": "A-B"}),
        ("cannot", {"type": "cannot"}),
        ("pass 2 to 2", {"type": "give", "card": 6, "to": 1}),
        ("give 1 3", {"type": "give", "card": 4, "to": 2}),
        ("decode 2 d57", {"type": "decode", "target": 1, "code": "D57"}),
        ("stop", {"type": "stop"}),
        ("reveal x1", {"type": "reveal", "card": "x1"}),
        ("s", {"type": "slap"}),
        ("slap", {"type": "slap"}),
        ("p", {"type": "pass"}),
        ("answer 2 D57 3 a01", {"type": "answer", "codes": {"1": "D57", "2": "A01"}}),
    ],
)
def test_parse_short_commands(command, action):
    view = rigged(["F98", "D57", "A01"], row=[4, 6, 0, 1, 2]).view(0)
    assert screen.parse(command, view) == action


@pytest.mark.parametrize(
    "command, message",
    [
        ("", "type a command"),
        ("dance", "unknown command"),
        ("pass 9 to 2", "cards 1 to 5"),
        ("pass x to 2", "must be a number"),
        ("order 9", "order your digits"),
        ("pass ² to 2", "must be a number"),
        ("answer 1", "answer like"),
        ("reveal x5", "unknown command"),
    ],
)
def test_parse_errors_explain(command, message):
    view = rigged(["F98", "D57", "A01"]).view(0)
    with pytest.raises(IllegalAction, match=message):
        screen.parse(command, view)


def test_render_shows_own_code_and_each_sheet_of_known_facts():
    game = rigged(["F98", "D57", "A01"], row=[4, 6, 0, 1, 2])
    game.apply(0, {"type": "take", "card": "20-39"})
    game.apply(0, {"type": "give", "card": 4, "to": 1})
    out = text_of(screen.render(game.view(0)))
    assert "Your code: F98" in out and "x1∈{0,2,4,6,8}" in out and "20-39" in out
    assert "possible letter | x1 | x2" in out
    assert "ABCDE | 1357 | 01234567" in out  # seat 1 as seat 0 sees it: x1 red on evens
    assert "D57" not in out and "A01" not in out
    assert "possible" not in text_of(screen.render(rigged(["F98", "D57"], notes=False).view(0)))


def test_render_the_finished_game_and_the_order_step():
    game = rigged(["F98", "D57"], mode="one-shot")
    play_rounds(game)
    game.apply(0, {"type": "answer", "codes": {"1": "D57"}})
    game.apply(1, {"type": "answer", "codes": {"0": "A12"}})
    shown = text_of(screen.render(game.view(None)))
    assert (
        "Won by seat 1" in shown and "Codes: seat 1 F98, seat 2 D57." in shown and "seat 2 wrote: seat 1 A12." in shown
    )
    import codecrack

    fresh = codecrack.new_game("coding", players=2, seed=3)
    assert "order them" in text_of(screen.render(fresh.view(0)))


def test_counter_passes_and_the_stalemate_deal_at_the_terminal():
    game = rigged(["F98", "D57", "A01"], mode="counter", pile=["B", 2, "C"])
    play_rounds(game)
    game.stacks = {kind: 0 for kind in game.stacks}
    game.row = []
    events = game.apply(1, {"type": "cannot"})
    assert screen.describe(1, {"type": "cannot"}, events) == "seat 2 has nothing to hack and passes"
    assert "passes in a row: 1 of 3" in text_of(screen.render(game.view(2)))
    game.apply(2, {"type": "cannot"})
    events = game.apply(0, {"type": "cannot"})
    assert screen.describe(0, {}, events).endswith("stalemate: leftover cards face up: B C 2")  # no Python list
    assert "face up: B C 2" in text_of(screen.render(game.view(1)))


def test_describe_uses_only_public_events():
    game = rigged(["F98", "D57", "A01"])
    line = screen.describe(0, {"type": "order", "x1": 9, "x2": 8}, [{"type": "ordered", "seat": 0}])
    assert line == "seat 1 ordered their code" and "9" not in line
    events = game.apply(0, {"type": "take", "card": "20-39"})
    assert screen.describe(0, {}, events) == "seat 1 took data card 20-39"
    events = game.apply(0, {"type": "give", "card": game.row[0], "to": 1})
    assert screen.describe(0, {}, events).startswith("seat 1 passed ") and "to seat 2" in screen.describe(0, {}, events)


class Passer(Agent):
    """A bot that passes whenever it may and otherwise plays its first legal action."""

    name = "passer"

    def __init__(self, delay: float) -> None:
        super().__init__(0)
        self.reaction_delay = delay

    def act(self, view):
        legal = view["legal_actions"]
        return {"type": "pass"} if {"type": "pass"} in legal else legal[0]


def wait_for(condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("scripted human waited too long")
        time.sleep(0.005)


def scripted_human(game, console, script):
    """A terminal human whose typed lines come from ``script(game)``."""
    return TerminalHuman("coding", console, read=lambda prompt: script(game))


def run_speed(codes, script, bots, **options):
    game = rigged(codes, mode="speed", **options)
    console = Console(file=io.StringIO(), width=200)
    agents = {0: scripted_human(game, console, script), **bots}
    screen.run(game, agents, console)
    return game, console.file.getvalue()


def first_or(step_lines):
    def script(game):
        return step_lines(game) if game.phase == "cracking" else "1"

    return script


def test_speed_human_slaps_with_a_key_and_answers_in_time():
    def lines(game):
        return "s" if game.step == "open" else "decode 2 D57"

    game, out = run_speed(["F98", "D57", "A01"], first_or(lines), {1: Passer(60), 2: Passer(60)})
    assert game.result["winners"] == [0]
    assert "seat 1 SLAPS" in out and "you slapped!" in out


def test_speed_bots_react_after_their_delay_while_the_human_waits():
    def lines(game):
        if game.step == "open":
            wait_for(lambda: game.passed >= {1, 2} or game.step != "open")
            return "s" if game.table_letters + game.table_digits else "p"
        return "decode 3 A01"

    game, out = run_speed(["F98", "D57", "A01"], first_or(lines), {1: Passer(0), 2: Passer(0.01)})
    assert game.result["winners"] == [0]
    log = out.splitlines()
    first_pass = next(i for i, line in enumerate(log) if "passes" in line)
    assert "seat 2 passes" in log[first_pass] and "seat 3 passes" in log[first_pass + 1]
    assert any("stalemate: leftover cards face up" in line for line in log)


def test_speed_human_who_hesitates_is_out():
    def lines(game):
        if game.step == "open":
            return "s"
        wait_for(lambda: game.over)  # never answers: the answer window runs out
        return "decode 2 D57"

    game, out = run_speed(["F98", "D57", "A01"], first_or(lines), {1: Passer(60), 2: Passer(60)}, answer_window=1)
    assert game.sheets[0].out and "hesitated" in out
    assert game.over


def test_speed_human_typo_is_explained_and_play_goes_on():
    typed = iter(["hello", "s", "decode 2 XYZ", "decode 2 D57"])

    def lines(game):
        return next(typed)

    game, out = run_speed(["F98", "D57", "A01"], first_or(lines), {1: Passer(60), 2: Passer(60)})
    assert game.result["winners"] == [0]
    assert "unknown command 'hello'" in out and "like 'D57'" in out


def test_play_command_runs_counter_mode_and_speed_without_humans():
    lines = iter(["?"] + ["1"] * 400)
    console = Console(file=io.StringIO(), width=200)
    record = play(
        "coding",
        ["human", "random"],
        seed=2,
        options={"mode": "counter"},
        console=console,
        read=lambda prompt: next(lines),
    )
    assert record["game"] == "coding" and "Game over" in console.file.getvalue()
    record = play("coding", ["random", "random", "random"], seed=2, options={"mode": "speed"}, console=console)
    assert record["options"] == {"mode": "speed"}


def test_end_of_input_stops_a_speed_game():
    def lines(game):
        raise EOFError

    with pytest.raises(EOFError):
        run_speed(["F98", "D57", "A01"], lines, {1: Passer(60), 2: Passer(60)})


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=20))
def test_parse_turns_any_text_into_an_action_or_a_helpful_error(text):
    view = rigged(["F98", "D57", "A01"]).view(0)
    try:
        action = screen.parse(text, view)
    except IllegalAction as error:
        assert str(error)
    else:
        assert isinstance(action, dict) and isinstance(action["type"], str)


def test_speed_human_goes_through_a_deal_and_a_number_card_reveal():
    def lines(game):
        if game.step == "open":
            wait_for(lambda: game.passed >= {1, 2, 3} or game.step != "open")
            return "s" if game.sheets[0].revealed else "p"
        if game.step == "stalemate":
            return "reveal x1"
        return "decode 4 B23"

    bots = {seat: Passer(0) for seat in (1, 2, 3)}
    game, out = run_speed(["F98", "D57", "A01", "B23"], first_or(lines), bots)
    assert game.result["winners"] == [0]
    assert "stalemate: leftover cards face up" in out and "seat 1 reveals x1 = 9" in out


def test_the_menu_groups_every_move_in_short_commands_never_cut_short():
    from codecrack.terminal.human import action_menu

    game = rigged(["F98", "D57", "A01"])
    play_rounds(game)
    seat = min(game.to_move)
    shown = text_of(action_menu("coding", game.view(seat)))
    assert "take " in shown and "540 codes" in shown and "{" not in shown
    assert len(shown.splitlines()) < 10


def test_a_human_table_starts_with_how_to_play():
    console = __import__("rich.console").console.Console(file=io.StringIO(), width=120)
    lines = iter(["?"] + ["1"] * 400)
    play("coding", ["human", "random"], seed=3, options={}, console=console, read=lambda prompt: next(lines))
    output = console.file.getvalue()
    assert "How to play" in output and "Welcome to The Coding" in output and "Game over" in output

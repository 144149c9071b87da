"""Terminal play: commands, the drawn sheet and notes, the log lines, and a whole game."""

import io
import itertools

import pytest
from rich.console import Console

import codecrack
from codecrack.games.alphacode import screen
from codecrack.terminal.play import play

from .helpers import CODE_A, CODE_B, ask, circle, declare, duel, letters


def text_of(renderable) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


@pytest.mark.parametrize(
    "text, action",
    [
        ("count O D", ask("count", "OD")),
        ("filled q i", ask("filled", "QI")),
        ("count OD", ask("count", "OD")),
        ("random", {"type": "random_code"}),
        ("pass", {"type": "pass"}),
        (f"code {CODE_A}", {"type": "code", "letters": letters(CODE_A)}),
        (f"declare {CODE_B}", declare(CODE_B)),
    ],
)
def test_commands_become_actions(text, action):
    assert screen.parse(text, duel().view(0)) == action


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "commands:"),
        ("jump", "unknown command"),
        ("count O", "row and a column"),
        ("declare a@B b", "letter@RC"),
        ("code a@BCD", "letter@RC"),
        ("code a@C", "not a zone column"),
    ],
)
def test_bad_commands_explain_themselves(text, message):
    with pytest.raises(codecrack.IllegalAction, match=message):
        screen.parse(text, duel().view(0))


def test_the_screen_shows_coordinates_the_code_and_the_notes():
    game = duel(first=0)
    game.apply(0, ask("count", "OD"))
    game.apply(1, ask("filled", "NB"))
    game.apply(0, ask("filled", "QC"))
    shown = text_of(screen.render(game.view(0)))
    assert "A B C D E F G H I J K L M" in shown and " R " in shown
    assert "Your code: a@NA h@NE f@NI i@PK j@NK" in shown
    notes = shown.split("Notes on seat 2's code:")[1]
    assert " O ¦   ¦ 3 ¦" in notes  # the count of zone (O, D)
    row_q = next(line for line in notes.splitlines() if line.startswith(" Q "))
    assert row_q.startswith(" Q ¦   ┃")  # square (Q, C) is filled
    spectator = text_of(screen.render(game.view(None)))
    assert "Your code" not in spectator and "h@NE" not in spectator and "Notes on seat 1's code" in spectator


def test_log_lines_tell_what_happened_without_hidden_letters():
    game = circle(3)
    line = screen.describe(0, ask("count", "OB"), game.apply(0, ask("count", "OB")))
    assert line == "seat 1 asks count (O, B): 3 of 4 sides filled"
    line = screen.describe(1, declare(CODE_B), game.apply(1, declare(CODE_B)))
    assert line == "seat 2 declares — Incorrect" and "@" not in line
    game = duel(first=0)
    line = screen.describe(0, declare(CODE_B), game.apply(0, declare(CODE_B)))
    assert line.startswith("seat 1 declares c@NA") and "final declaration" in line


def test_the_start_line_tells_the_handicap_opening():
    game = codecrack.new_game("alphacode", players=2, seed=11, first=0, handicap=2)
    game.apply(0, {"type": "random_code"})
    line = screen.describe(1, {"type": "random_code"}, game.apply(1, {"type": "random_code"}))
    assert line.endswith("round 1: seat 1 asks 2 handicap question(s), then seat 2 plays; seat 1 is the first player")


def test_a_whole_game_at_the_terminal_with_a_human_seat():
    typed = itertools.chain(["code a@C", "code a@B b@D h@H f@J i@PK", "random"], itertools.repeat("1"))
    console = Console(file=io.StringIO(), width=120, color_system=None)
    record = play(
        "alphacode", ["human", "random"], seed=4, options={}, console=console, read=lambda prompt: next(typed)
    )
    game = codecrack.replay(record)
    assert game.over
    output = console.file.getvalue()
    assert (
        "not a zone column" in output and "touch" in output and "Game over" in output and "seat 1 made a code" in output
    )


def test_the_menu_lists_every_question_and_a_bad_coordinate_names_the_problem():
    from codecrack.terminal.human import action_menu

    game = duel()
    seat = min(game.to_move)
    shown = text_of(action_menu("alphacode", game.view(seat)))
    assert "count O B | O D" in shown and "filled N B" in shown and "declare a@NA" in shown
    with pytest.raises(codecrack.IllegalAction, match="the row is one letter N-R, the column one letter A-M"):
        screen.parse("count O DD", game.view(seat))

"""Seats at the terminal are numbered as on the web page ("Seat 1" is the engine's seat 0): in
prompts, boards, history lines, menus, the end summary, typed commands and typed options, in
English and in Thai. The engine, the records and the protocol keep counting from 0."""

from __future__ import annotations

import contextvars
import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

import codecrack
from codecrack.cli import app
from codecrack.games.coda import screen as coda
from codecrack.games.coding import screen as coding
from codecrack.i18n import language
from codecrack.terminal.human import TerminalHuman, action_menu
from codecrack.terminal.play import play

from ..coda.helpers import rigged as coda_rigged
from ..coding.helpers import play_rounds
from ..coding.helpers import rigged as coding_rigged

GAMES = ["coda", "coding", "alphacode"]
ENGINE_SEAT_ZERO = re.compile(r"\b[Ss]eats? 0\b|ที่นั่ง 0|\[0\b|\b0 \(you\)")


def text_of(renderable) -> str:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def transcript(game: str, seats: list[str], lang: str = "en", **options) -> tuple[str, list[str]]:
    """A whole game with a human at engine seat 0 who types the first legal move each time (after
    one ?): everything printed, and every prompt the human was shown."""
    prompts: list[str] = []
    typed = iter(["?"] + ["1"] * 3000)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    output = io.StringIO()
    with language(lang):
        play(
            game, seats, seed=5, options=options, console=Console(file=output, width=200, color_system=None), read=read
        )
    return output.getvalue(), prompts


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang, seat", [("en", "seat"), ("th", "ที่นั่ง")])
def test_a_whole_game_shows_seats_numbered_from_1_as_the_web_does(game, lang, seat):
    output, prompts = transcript(game, ["human", "random", "random"], lang)
    assert all(seat + " 1>" in prompt for prompt in prompts if prompt)  # the human sits in Seat 1
    assert f"{seat} 3" in output and f"{seat} 4" not in output  # three seats: 1, 2 and 3
    assert ENGINE_SEAT_ZERO.findall(output) == []
    if game == "alphacode" and lang == "en":  # the end reveals every code, named by seat
        assert "seat 3's code: " in output.split("Game over")[-2]


def test_coda_guess_names_the_opponent_as_the_board_shows_it():
    view = coda_rigged(["b1 W5", "B2 w6 b9"], "b3").view(0)
    assert coda.parse("guess 2 1 w6", view) == {"type": "guess", "target": 1, "index": 1, "color": "white", "value": 6}
    with pytest.raises(codecrack.IllegalAction, match="your own tiles"):
        coda.parse("guess 1 0 b1", view)
    for typed in ("0", "3"):
        with pytest.raises(codecrack.IllegalAction, match=f"seat {typed} is not an opponent"):
            coda.parse(f"guess {typed} 0 b1", view)
    with pytest.raises(codecrack.IllegalAction, match="seat 2 has tiles 0 to 2"):
        coda.parse("guess 2 7 b1", view)
    assert "seat 1 (you)" in text_of(coda.render(view)) and "seat 2 " in text_of(coda.render(view))
    game = coda_rigged(["b1 W5", "B2 w6 b9"], "b3")
    game.apply(0, {"type": "draw", "color": "black"})
    menu = text_of(action_menu("coda", game.view(0)))
    assert "guess 2 1 " in menu and "guess 1 " not in menu
    assert "e.g. guess 2 0 b3" in text_of(coda.render(game.view(0)))


def test_coda_history_and_summary_count_seats_from_1():
    game = coda_rigged(["b1 w5", "b2 w6"], "b3")
    events = game.apply(0, {"type": "draw", "color": "black"})
    assert coda.describe(0, {}, events) == "seat 1 draws a black tile"
    events = game.apply(0, {"type": "guess", "target": 1, "index": 1, "color": "white", "value": 6})
    assert coda.describe(0, {}, events) == "seat 1 guesses seat 2's tile 1 is W6: HIT"
    assert "phase guess, seat 1 plays" in text_of(coda.render(game.view(1)))
    round_over = {"type": "round_over", "round": 1, "winner": 1, "points": [0, 2]}
    assert coda.event_text(round_over) == "round 1 won by seat 2; points this round seat 1: 0, seat 2: 2"


def test_coding_commands_name_seats_as_the_board_shows_them():
    view = coding_rigged(["F98", "D57", "A01"], row=[4, 6, 0, 1, 2]).view(0)
    assert coding.parse("pass 2 to 3", view) == {"type": "give", "card": 6, "to": 2}
    assert coding.parse("decode 2 d57", view) == {"type": "decode", "target": 1, "code": "D57"}
    assert coding.parse("answer 2 D57 3 a01", view) == {"type": "answer", "codes": {"1": "D57", "2": "A01"}}
    for command in ("pass 1 to 0", "decode 4 D57", "answer 0 D57"):
        with pytest.raises(codecrack.IllegalAction, match="the seats are 1 to 3"):
            coding.parse(command, view)


def test_coding_board_menu_and_log_count_seats_from_1():
    game = coding_rigged(["F98", "D57", "A01"], row=[4, 6, 0, 1, 2])
    events = game.apply(0, {"type": "take", "card": "20-39"})
    events += game.apply(0, {"type": "give", "card": 4, "to": 1})
    assert coding.describe(0, {}, events).startswith("seat 1 took data card 20-39; seat 1 passed ")
    assert coding.describe(0, {}, events).endswith("to seat 2: RED")
    assert "to move: 2" in text_of(coding.render(game.view(1)))
    game.apply(1, {"type": "take", "card": "00-19"})
    receivers = {action["to"] + 1 for action in game.legal_actions(1) if action["type"] == "give"}
    assert receivers == {3}  # not back to seat 1, who just passed to seat 2
    assert "to seat 3" in text_of(action_menu("coding", game.view(1)))
    play_rounds(game)
    seat = min(game.to_move)
    menu = text_of(action_menu("coding", game.view(seat)))
    assert f"seat {seat + 1}: " not in menu and "codes" in menu


def test_coding_end_lists_codes_and_answers_by_seat_number_from_1():
    game = coding_rigged(["F98", "D57"], mode="one-shot")
    play_rounds(game)
    game.apply(0, {"type": "answer", "codes": {"1": "D57"}})
    game.apply(1, {"type": "answer", "codes": {"0": "A12"}})
    shown = text_of(coding.render(game.view(None)))
    assert "Won by seat 1" in shown and "Codes: seat 1 F98, seat 2 D57." in shown
    assert "seat 2 wrote: seat 1 A12." in shown


def test_a_speed_slap_for_a_named_seat_counts_from_1():
    from ..coding.test_terminal import Passer, run_speed

    def lines(game):
        if game.phase != "cracking":
            return "1"
        return "s 1" if game.step == "open" else "decode 2 D57"

    game, out = run_speed(["F98", "D57", "A01"], lines, {1: Passer(60), 2: Passer(60)})
    assert game.result["winners"] == [0] and "seat 1 SLAPS" in out and "seat 1: you slapped" in out


def test_alphacode_board_and_log_count_seats_from_1():
    from ..alphacode.helpers import ask, duel

    game = duel(first=0)
    from codecrack.games.alphacode import screen as alphacode

    line = alphacode.describe(0, ask("count", "OD"), game.apply(0, ask("count", "OD")))
    assert line.startswith("seat 1 asks count (O, D)")
    shown = text_of(alphacode.render(game.view(1)))
    assert "Alphabet Code, seat 2," in shown and "to move 2" in shown and "Notes on seat 1's code:" in shown


def test_the_handicap_opening_names_the_seats_from_1():
    from codecrack.games.alphacode import screen as alphacode

    game = codecrack.new_game("alphacode", players=2, seed=11, first=0, handicap=2)
    game.apply(0, {"type": "random_code"})
    line = alphacode.describe(1, {"type": "random_code"}, game.apply(1, {"type": "random_code"}))
    assert line.endswith("round 1: seat 1 asks 2 handicap question(s), then seat 2 plays; seat 1 is the first player")


def run_cli(*args: str):
    return contextvars.copy_context().run(CliRunner().invoke, app, list(args), terminal_width=200)


def test_a_seat_option_typed_at_the_terminal_counts_from_1(tmp_path):
    saved = tmp_path / "game.json"
    result = run_cli(
        "play",
        "alphacode",
        "--seats",
        "random,random,random",
        "--seed",
        "3",
        "-o",
        "creator=1",
        "-o",
        "first=2",
        "--save",
        str(saved),
    )
    assert result.exit_code == 0, result.output
    record = codecrack.replay(__import__("json").loads(saved.read_text())).record()
    assert record["options"] == {"creator": 0, "first": 1}  # the engine's seats
    for value in ("0", "4", "x"):
        refused = run_cli("play", "alphacode", "--seats", "random,random,random", "-o", f"creator={value}")
        assert refused.exit_code == 1 and "creator is a seat: 1 to 3" in refused.output, refused.output
    shown = " ".join(CliRunner().invoke(app, ["play", "--help"]).output.split())
    assert "A SEAT value counts from 1" in shown and "first=1 is the player" in shown


def test_the_arena_takes_seat_options_as_play_does():
    result = run_cli("arena", "--game", "coda", "--agents", "random", "--games", "1", "-o", "first=2", "--json")
    assert result.exit_code == 0, result.output
    assert __import__("json").loads(result.output)["options"] == {"first": 1}
    refused = run_cli("arena", "--game", "coda", "--agents", "random", "--games", "1", "-o", "first=3")
    assert refused.exit_code == 2 and "first is a seat: 1 to 2" in refused.output


def test_a_typed_move_the_engine_refuses_is_explained_and_asked_again():
    """A free-form move (a one-shot answer) typed at the wrong step changes nothing and does not end the game."""
    typed = iter(["answer 2 D57"] + ["1"] * 500)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    record = play(
        "coding",
        ["human", "random"],
        seed=3,
        options={"mode": "one-shot"},
        console=console,
        read=lambda prompt: next(typed),
    )
    assert codecrack.replay(record).over and "is not possible now" in console.file.getvalue()


@pytest.mark.parametrize("text", ["²", "guess ² 0 b1", "guess 2 ² b1"])
def test_unicode_digits_are_not_numbers(text):
    view = coda_rigged(["b1 W5", "B2 w6 b9"], "b3").view(0)
    human = TerminalHuman("coda", Console(file=io.StringIO()))
    with pytest.raises(codecrack.IllegalAction):
        human.parse(text, view)

"""The terminal in Thai: `codecrack play --lang th`, and a human seat's whole game of each game."""

from __future__ import annotations

import contextvars
import io

import pytest
from rich.console import Console
from typer.testing import CliRunner

from codecrack.cli import app
from codecrack.i18n import language, translate
from codecrack.terminal.play import play

ENGLISH = (
    "How to play",
    "Game over",
    "Legal actions",
    "Winner",
    "Nobody wins",
    "Welcome",
    "seat 1 ",
    "seat 2 ",
    "Your code",
    "round ",
)


@pytest.mark.parametrize("game, words", [("coda", "จั่ว"), ("coding", "การ์ดข้อมูล"), ("alphacode", "สร้างรหัส")])
def test_a_human_plays_a_whole_game_in_thai(game, words):
    answers = iter(["?"] + ["1"] * 2000)  # the menu once, then always the first legal move
    output = io.StringIO()
    with language("th"):
        play(
            game,
            ["human", "random"],
            seed=5,
            options={},
            console=Console(file=output, width=140, color_system=None),
            read=lambda prompt: next(answers),
        )
    text = output.getvalue()
    for english in ("How to play", "Game over", "Legal actions (type one of these commands)"):
        assert translate(english, "th") in text
    assert "ที่นั่ง 1" in text and "ที่นั่ง 0" not in text and words in text
    assert [english for english in ENGLISH if english in text] == []


def test_the_lang_option_and_the_environment_choose_the_language():
    def run(*args: str, env: dict[str, str] | None = None) -> str:
        # a copied context: the command's language does not leak into the other tests
        result = contextvars.copy_context().run(CliRunner().invoke, app, list(args), env=env)
        assert result.exit_code == 0, result.output
        return result.output

    thai = run("play", "coda", "--seats", "random,random", "--seed", "3", "--lang", "th")
    assert translate("Game over", "th") in thai and "Game over" not in thai
    english = run("play", "coda", "--seats", "random,random", "--seed", "3")
    assert "Game over" in english


@pytest.mark.parametrize("game, options", [("coding", {"mode": "one-shot"}), ("coding", {}), ("alphacode", {})])
def test_the_end_reason_and_the_menus_are_in_thai(game, options):
    from codecrack.agents import make_agent
    from codecrack.core.registry import new_game
    from codecrack.core.runner import run_game
    from codecrack.terminal.human import action_menu
    from codecrack.terminal.play import summary

    fresh = new_game(game, players=2, seed=4, **options)
    with language("th"):
        menu = Console(file=io.StringIO(), width=200, color_system=None)
        menu.print(action_menu(game, fresh.view(0)))
    assert "random code" not in menu.file.getvalue() and "build your code" not in menu.file.getvalue()
    run_game(fresh, {seat: make_agent("random", game, seed=seat) for seat in (0, 1)})
    reason = fresh.result["reason"]
    with language("th"):
        lines = summary(game, fresh)
    assert translate(reason, "th") != reason and any(translate(reason, "th") in line for line in lines)

"""The command line in Thai: `--help` follows the POSIX variables (it is printed before `--lang` is
read), and `codecrack review` writes its table in the current language."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
import typer
from rich.console import Console

import codecrack
from codecrack.agents import make_agent
from codecrack.cli import app
from codecrack.cli_language import BUILT_IN_HELP, HELP_VALUES, TYPER_TEXTS
from codecrack.core.runner import run_game
from codecrack.i18n import language, translate
from codecrack.review import review_record
from codecrack.review.render import COLUMNS, print_review

from .catalogues import extracted_messages

THAI = "\u0e00-\u0e7f"


def _help(*command: str, lang: str | None) -> str:
    """``codecrack COMMAND --help`` as a user runs it, in a terminal wide enough for one line a text."""
    env = {key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(COLUMNS="400", LANG=lang or "C.UTF-8")
    script = "from codecrack.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", script, *command, "--help"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def _shown_texts(command) -> list[str]:
    """The texts of ``command``'s help page: its help, its parameters' and its subcommands' help."""
    subcommands = getattr(command, "commands", {}).values()
    return [
        text
        for text in [
            command.help,
            *(param.help for param in command.params),
            *(subcommand.help for subcommand in subcommands),
        ]
        if text
    ]


def _help_texts(command) -> list[str]:
    texts = _shown_texts(command)
    for subcommand in getattr(command, "commands", {}).values():
        texts += _help_texts(subcommand)
    return texts


def test_every_help_text_of_every_command_is_marked_and_translated():
    texts = _help_texts(typer.main.get_command(app)) + list(BUILT_IN_HELP) + list(TYPER_TEXTS.values())
    assert sorted(set(texts) - extracted_messages()) == [], "help texts not marked with N_()"
    assert [text for text in texts if translate(text, "th") == text] == []


@pytest.mark.parametrize("command", [(), ("play",), ("review",), ("serve",)])
def test_help_is_thai_under_a_thai_locale(command):
    thai, english = _help(*command, lang="th_TH.UTF-8"), _help(*command, lang=None)
    texts = _shown_texts(_command(command))
    assert all(text.format(**HELP_VALUES) in english for text in texts)
    assert [text for text in texts if text.format(**HELP_VALUES) in thai] == [], "left in English"
    assert all(translate(text, "th").format(**HELP_VALUES) in thai for text in texts)
    for fixed in ("Usage: ", "Options", "Show this message and exit."):
        assert fixed in english and fixed not in thai and translate(fixed, "th") in thai


def _command(path: tuple[str, ...]):
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return command


def test_the_review_table_is_written_in_the_current_language():
    game = codecrack.new_game("coda", players=2, seed=4)
    run_game(game, {s: make_agent("medium", "coda", seed=s) for s in (0, 1)})
    output = io.StringIO()
    with language("th"):
        review = review_record(game.record(), 0)
        print_review(review, Console(file=output, width=300, color_system=None))
    text = output.getvalue()
    english = [column for column in COLUMNS if f" {column} " in text]
    assert english == [] and all(translate(column, "th") in text for column in COLUMNS)
    assert "review of seat" not in text and "decisions:" not in text
    assert all(translate(d.kind, "th") in text and translate(d.grade, "th") in text for d in review.decisions)

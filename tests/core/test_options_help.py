"""Every option has a label and a description; presets; the CLI lists them and refuses flags given as options."""

import pytest
from typer.testing import CliRunner

import codecrack
from codecrack.cli import app
from codecrack.core.registry import game_class
from codecrack.terminal.options_help import preset_options

GAMES = ["coda", "coding", "alphacode"]
runner = CliRunner()


@pytest.mark.parametrize("game", GAMES)
def test_every_option_has_a_title_and_a_one_line_description(game):
    for name, field in game_class(game).Options.model_fields.items():
        assert field.title, name  # pydantic leaves it None unless the model gives one
        assert field.description and "\n" not in field.description, name


@pytest.mark.parametrize("game", GAMES)
def test_the_presets_are_classic_advanced_and_tournament_and_all_play(game):
    presets = game_class(game).presets
    assert [p.title for p in presets] == ["Classic", "Advanced", "Tournament"]
    assert [p.name for p in presets if p.default] == ["classic"]
    assert preset_options(game, None) == {}  # the default preset is the game's defaults
    for preset in presets:
        codecrack.new_game(game, players=3, seed=1, **preset.options)


def test_play_help_lists_every_games_options_and_presets():
    shown = runner.invoke(app, ["play", "--help"], terminal_width=200).output
    for text in (
        "coda options",
        "rounds=1|3",
        "Turn clock",
        "coding presets",
        "--preset tournament",
        "alphacode options",
        "columns=13|15|17",
        "creator=SEAT",
        "Code creator",
        "first=1",
    ):
        assert text in shown, text


def test_play_with_a_preset():
    result = runner.invoke(app, ["play", "coda", "--preset", "tournament", "--seats", "random,random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "round 3" in result.output.lower()
    unknown = runner.invoke(app, ["play", "coda", "--preset", "nope", "--seats", "random,random"])
    assert unknown.exit_code == 1 and "valid presets: classic, advanced, tournament" in unknown.output


@pytest.mark.parametrize(
    "command",
    [["play", "coda", "--seats", "random,random"], ["arena", "--game", "coda", "--agents", "random", "--games", "1"]],
)
def test_players_given_as_an_option_is_a_clear_error_not_a_traceback(command):
    result = runner.invoke(app, [*command, "-o", "players=3"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "players is not a game option" in result.output

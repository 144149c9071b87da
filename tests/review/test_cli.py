"""``codecrack review RECORD --seat S`` in the terminal, and its errors; ``bench review``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import codecrack
from codecrack.agents import make_agent
from codecrack.bench import run_benchmark
from codecrack.cli import app
from codecrack.core.runner import run_game
from codecrack.review import ReviewError, review_record
from codecrack.review.render import review_table


@pytest.fixture
def record_file(tmp_path):
    game = codecrack.new_game("coding", players=2, seed=3, mode="one-shot")
    run_game(game, {s: make_agent("medium", "coding", seed=s) for s in (0, 1)})
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record()))
    return path


def test_review_prints_a_table_with_the_tally(record_file):
    result = CliRunner().invoke(app, ["review", str(record_file), "--seat", "1"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "review of seat 1" in result.output and "decisions:" in result.output and "best" in result.output


def test_review_json_matches_the_library(record_file):
    result = CliRunner().invoke(app, ["review", str(record_file), "--seat", "1", "--json"])
    assert json.loads(result.output) == review_record(json.loads(record_file.read_text()), 0).to_json()


def test_seats_are_typed_and_shown_from_1(record_file):
    result = CliRunner().invoke(app, ["review", str(record_file), "--seat", "2"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "review of seat 2" in result.output and "seat 1:" in result.output  # engine seat 1 answers about seat 0


@pytest.mark.parametrize("seat", ["0", "3"])
def test_a_seat_outside_1_to_players_is_a_clear_error(record_file, seat):
    result = CliRunner().invoke(app, ["review", str(record_file), "--seat", seat])
    assert result.exit_code == 2 and "the seats are 1 to 2" in result.output


@pytest.mark.parametrize("text,seat", [('{"game": "coda"}', "0"), ("[1, 2]", "0"), ("not json", "0"), (None, "5")])
def test_bad_input_is_a_clear_error(record_file, tmp_path, text, seat):
    path = record_file
    if text is not None:
        path = tmp_path / "bad.json"
        path.write_text(text)
    result = CliRunner().invoke(app, ["review", str(path), "--seat", seat])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_an_action_that_does_not_replay_is_named():
    record = {"game": "coda", "players": 2, "seed": 1, "options": {}, "actions": [[0, {"type": "fly"}]]}
    with pytest.raises(ReviewError, match="action 0"):
        review_record(record, 0)


def test_the_review_benchmark_reports_every_table():
    report = run_benchmark("review", games=1)
    assert {(row["game"], row["players"]) for row in report["tables"]} >= {("coda", 2), ("coding", 4), ("alphacode", 2)}
    assert all(row["ms_p95"] >= row["ms_p50"] > 0 for row in report["tables"])


def test_the_terminal_review_speaks_plainly(tmp_path):
    """Issue 25 §5 at the terminal: a question's value is its share of the best question's, a
    chance reads as a chance, not bare bits or numbers."""
    game = codecrack.new_game("alphacode", players=2, seed=14, first=0)
    run_game(game, {0: make_agent("easy", "alphacode", seed=14), 1: make_agent("medium", "alphacode", seed=114)})
    path = tmp_path / "alphacode.json"
    path.write_text(json.dumps(game.record()))
    result = CliRunner().invoke(app, ["review", str(path), "--seat", "1"], env={"COLUMNS": "220"})
    assert result.exit_code == 0, result.output
    table = review_table(review_record(game.record(), 0))
    values = [*table.columns[3]._cells, *table.columns[5]._cells]  # the "value" and "best value" columns
    assert "narrows the code 86% as much as the best question" in values
    assert not any("bits" in value for value in values)

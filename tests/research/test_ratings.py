"""OpenSkill ratings from arena games, a ladder kept across runs, and `codecrack ladder`."""

import json

import pytest
from typer.testing import CliRunner

from codecrack.cli import app
from codecrack.ratings import Ladder, RatingsError

runner = CliRunner()


def game(names, places):
    return {"names": names, "places": places}


def test_a_winner_gains_and_the_losers_lose():
    ladder = Ladder()
    ladder.rate("coda", [game(["a", "b", "c", "d"], [1, 2, 2, 2])])
    table = {row["name"]: row for row in ladder.table("coda")}
    assert table["a"]["mu"] > 25 > table["b"]["mu"] == table["c"]["mu"]
    assert [row["name"] for row in ladder.table("coda")][0] == "a"
    assert all(row["games"] == 1 for row in table.values())


def test_self_play_teaches_nothing_and_shared_seats_move_together():
    ladder = Ladder()
    ladder.rate("coda", [game(["a", "a"], [1, 2])])
    assert ladder.table("coda") == []
    ladder.rate("coda", [game(["a", "b", "b"], [2, 1, 2])])
    table = {row["name"]: row for row in ladder.table("coda")}
    assert table["b"]["games"] == 1 and table["a"]["mu"] < 25


def test_the_curve_has_a_point_before_and_after_each_game():
    curves = Ladder().rate("coda", [game(["a", "b"], [1, 2]), game(["b", "a"], [2, 1])])
    assert len(curves["a"]) == 3 and curves["a"][0] == (25.0, 25 / 3)
    assert curves["a"][2][0] > curves["a"][1][0] > curves["a"][0][0]


def test_the_ladder_file_round_trips_and_keeps_games_apart(tmp_path):
    path = tmp_path / "ratings.json"
    ladder = Ladder.load(path)
    ladder.rate("coda", [game(["a", "b"], [1, 2])])
    ladder.rate("coding", [game(["a", "b"], [2, 1])])
    ladder.save(path)
    again = Ladder.load(path)
    assert again.table("coda") == ladder.table("coda") and again.game_names() == ["coda", "coding"]


@pytest.mark.parametrize("text", ["not json", '{"version": 2}', '{"games": {"coda": {"a": {"mu": "x"}}}}'])
def test_a_broken_ratings_file_is_refused_and_left_alone(tmp_path, text):
    path = tmp_path / "ratings.json"
    path.write_text(text)
    with pytest.raises(RatingsError, match="not a codecrack ratings file"):
        Ladder.load(path)
    result = runner.invoke(
        app, ["arena", "--game", "coda", "--agents", "random", "--games", "1", "--ratings", str(path)]
    )
    assert result.exit_code == 2 and "not a codecrack ratings file" in result.output
    assert path.read_text() == text


def test_arena_runs_grow_the_ladder_and_ladder_prints_it(tmp_path):
    path = tmp_path / "ratings.json"
    arguments = [
        "arena",
        "--game",
        "coda",
        "--agents",
        "medium,random",
        "--games",
        "4",
        "--ratings",
        str(path),
        "--json",
    ]
    assert runner.invoke(app, arguments).exit_code == 0
    assert runner.invoke(app, arguments + ["--seed", "1"]).exit_code == 0
    rows = json.loads(runner.invoke(app, ["ladder", str(path), "--json"]).output)["coda"]
    assert {row["name"]: row["games"] for row in rows} == {"medium": 8, "random": 8}
    shown = runner.invoke(app, ["ladder", str(path)])
    assert shown.exit_code == 0 and "coda ladder" in shown.output and "medium" in shown.output


def test_ladder_without_a_file_says_so(tmp_path):
    result = runner.invoke(app, ["ladder", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "no ratings file" in result.output

"""Coda puzzles (issue 28 §3): every shipped puzzle is a real position whose best guess is clearly
best from that seat's own view, exactly as the file says, and the command writes them."""

from __future__ import annotations

import json
from importlib.resources import files

from typer.testing import CliRunner

from codecrack.cli import app
from codecrack.games.coda.belief import DASH
from codecrack.games.coda.puzzles import GRADES, MARGIN, find_puzzles, odds, position

SHIPPED = json.loads(files("codecrack.games.coda").joinpath("puzzles.json").read_text())


def test_every_shipped_puzzle_has_a_clear_best_guess_from_its_seats_view():
    assert len(SHIPPED) >= 30
    for puzzle in SHIPPED:
        view = position(puzzle)
        assert view["phase"] == "guess" and view["current"] == puzzle["seat"] and view["hits_this_turn"] == 0
        chances = odds(view)
        best = tuple(puzzle["best"])
        others = [p for guess, p in chances.items() if guess != best]
        assert abs(chances[best] - puzzle["p_best"]) < 1e-6 and abs(max(others) - puzzle["p_next"]) < 1e-6
        assert MARGIN <= chances[best] - max(others) and chances[best] < 1
        assert puzzle["grade"] in GRADES
        target, index, value = best
        guess = {"type": "guess", "target": target, "index": index, "color": view["rows"][target][index]["color"]}
        guess["value"] = "-" if value == DASH else value
        assert guess in view["legal_actions"]


def test_the_command_writes_the_puzzles_it_finds(tmp_path):
    out = tmp_path / "puzzles.json"
    result = CliRunner().invoke(app, ["puzzles", "coda", "--games", "2", "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text()) == find_puzzles(games=2, seed=1)
    refused = CliRunner().invoke(app, ["puzzles", "chess", "--out", str(out)])
    assert refused.exit_code == 2 and "no puzzles" in refused.output

"""A game from another package, found through the ``codecrack.games`` entry point, is playable in
the terminal, the arena, the environments and the web app with no edit to codecrack.

The example package ``examples/games/tinyguess`` is made importable and given a distribution's
metadata (its entry point) in a temporary directory on ``sys.path``, as ``pip install`` would.
"""

from io import StringIO
from pathlib import Path

import pyspiel
import pytest
from fastapi.testclient import TestClient
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from rich.console import Console

from codecrack.arena import ArenaConfig, run_arena
from codecrack.core import registry
from codecrack.env import openspiel
from codecrack.env.gym import make
from codecrack.env.pettingzoo import env
from codecrack.terminal.play import play
from codecrack.web.app import create_app
from codecrack.web.config import WebConfig
from tests.web.browser import browsing
from tests.web.conftest import fast_config
from tests.web.test_e2e import new_table
from tests.web.wsclient import HUMAN, RANDOM, bearer, create, seated

PACKAGE = Path(__file__).resolve().parents[2] / "examples" / "games" / "tinyguess"


@pytest.fixture
def installed(tmp_path, monkeypatch):
    info = tmp_path / "codecrack_tinyguess-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: codecrack-tinyguess\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[codecrack.games]\ntinyguess = codecrack_tinyguess.rules:TinyGuessGame\n")
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.syspath_prepend(str(tmp_path))
    before = dict(registry.GAMES)
    registry.discover()
    yield
    registry.GAMES.clear()
    registry.GAMES.update(before)


def test_the_entry_point_adds_the_game(installed):
    assert registry.GAMES["tinyguess"] == "codecrack_tinyguess.rules:TinyGuessGame"
    assert registry.game_class("tinyguess").nature(3).actions.size == 6


def test_terminal_play_with_a_human_typing_menu_numbers(installed):
    output = StringIO()
    record = play(
        "tinyguess", ["human", "random"], seed=4, options={}, console=Console(file=output), read=lambda prompt: "1"
    )
    assert registry.replay(record).over and "Game over" in output.getvalue()


def test_terminal_play_on_the_packages_own_screen(installed):
    """Its screen.py draws the view, reads ``g N``, tells each guess and shows the cards at the end."""
    output = StringIO()
    typed = iter([f"g {value}" for value in range(1, 7)] * 10)  # bounded: without the screen's parser it runs out
    seats, console = ["human", "random"], Console(file=output)
    record = play("tinyguess", seats, seed=4, options={"first": 0}, console=console, read=lambda prompt: next(typed))
    shown = output.getvalue()
    assert registry.replay(record).over
    assert "Tiny Guess, cards 1-6: your card" in shown and "seat 1 guesses" in shown and "the cards: seat 1" in shown


def test_arena(installed):
    report = run_arena(ArenaConfig("tinyguess", 3, ("random",), games=6, seed=2))
    assert report["games"] == 6 and sum(row["wins"] for row in report["agents"]) >= 6


@pytest.mark.filterwarnings("ignore:Observation")
def test_environments(installed):
    api_test(env("tinyguess", players=3), num_cycles=50)
    check_env(make("tinyguess", opponents="random", players=2), skip_render_check=True)
    game = pyspiel.load_game(openspiel.register("tinyguess"), {"players": 3})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_web_lobby_and_a_game_on_the_generic_board(installed, tmp_path):
    with TestClient(create_app(fast_config(tmp_path))) as client:
        games = {game["name"]: game for game in client.get("/api/games").json()}
        assert games["tinyguess"]["max_players"] == 3
        made = create(client, "tinyguess", [HUMAN, RANDOM], sit=0, options={"first": 0})
        with seated(client, made["code"], made["token"]) as me:
            me.play_to_the_end(lambda view: view["legal_actions"][0])
        assert client.get(f"/api/tables/{made['code']}").json()["over"]


def test_the_web_serves_the_packages_hints(installed, tmp_path):
    from codecrack_tinyguess.hints import hint

    with TestClient(create_app(fast_config(tmp_path))) as client:
        made = create(client, "tinyguess", [HUMAN, RANDOM], sit=0, options={"first": 0})
        assert client.get(f"/api/tables/{made['code']}").json()["hints"]  # the notes panel offers them
        with seated(client, made["code"], made["token"]) as me:
            me.play_to_the_end(lambda view: view["legal_actions"][0])
        mine = bearer(made["token"])
        frames = client.get(f"/api/tables/{made['code']}/replay", headers=mine).json()["frames"]
        answer = client.get(f"/api/tables/{made['code']}/replay/1/hint", headers=mine).json()
    assert answer["hint"] == hint(frames[1]) and answer["hint"]["candidates"]


def test_the_web_serves_the_packages_tutorial(installed, tmp_path):
    from codecrack_tinyguess.tutorial import TUTORIAL

    with TestClient(create_app(fast_config(tmp_path))) as client:
        lessons = client.get("/api/tutorials/tinyguess").json()["lessons"]
        made = client.post("/api/tutorials/tinyguess", json={"name": "Learner"}).json()
        script = TUTORIAL.seat_moves(0)
        with seated(client, made["code"], made["token"]) as me:
            over = me.play_to_the_end(lambda view: script.pop(0))
    assert [lesson["say"] for lesson in lessons] == ["welcome", "first_guess", "their_turn", "narrow", "hit", "done"]
    assert script == [] and over["result"]["winners"] == [0]


@pytest.mark.e2e
def test_the_browser_draws_the_packages_board(installed, tmp_path):
    """The board module is the package's own (web/board.js), and its seat can play: written first,
    it found that table.js ignored every click of a game whose view has no ``to_move``."""
    assert (PACKAGE / "codecrack_tinyguess" / "web" / "board.js").is_file()
    config = WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ai_pace=0.0)
    with browsing(config) as site:
        page = new_table(site, "tinyguess", "random", {"first": "0"})
        page.wait_for_selector(".tinyguess-board .tinyguess-card")
        page.click(".generic-actions button.action >> nth=0")
        page.wait_for_selector(".tinyguess-guesses li")
        assert page.errors == []

"""A game's front-end files come from its own package (issue 26 §2): /api/games names each game's
board module and tutorial order, and /games/GAME/FILE serves only that package's web folder."""

import pytest


def test_the_catalogue_names_each_games_board_and_tutorial_order(client):
    games = {game["name"]: game for game in client.get("/api/games").json()}
    assert {name: games[name]["board"] for name in ("alphacode", "coda", "coding")} == {
        name: f"/games/{name}/board.js" for name in ("alphacode", "coda", "coding")
    }
    taught = sorted((game["learn"], name) for name, game in games.items() if game["learn"] is not None)
    assert [name for _, name in taught] == ["coda", "coding", "alphacode"]
    assert games["toy"]["board"] is None and games["toy"]["learn"] is None  # a game without them


def test_a_board_module_is_served_from_the_games_package(client):
    answer = client.get("/games/coda/board.js")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert 'from "/static/js/dom.js"' in answer.text


@pytest.mark.parametrize("game", ["alphacode", "coda", "coding"])
def test_a_games_teaching_comes_with_its_board_module(client, game):
    """The how-to page's pictures and tips and the coach's pointers: the board imports them."""
    assert 'import teaching from "./teaching.js"' in client.get(f"/games/{game}/board.js").text
    answer = client.get(f"/games/{game}/teaching.js")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert f'game: "{game}"' in answer.text  # its example views


@pytest.mark.parametrize(
    "path",
    [
        "/games/nogame/board.js",
        "/games/coda/nothing.js",
        "/games/coda/rules.py",
        "/games/coda/..%2Frules.py",
        "/games/coda/%2E%2E%2F%2E%2E%2Fweb%2Fapp.py",
        "/games/coda/.board.js",
        "/games/coda/" + "a" * 5000 + ".js",
    ],
)
def test_anything_else_is_not_found(client, path):
    assert client.get(path).status_code == 404

"""Tutorial tables over HTTP and the websocket: the server's seed, the scripted opponent, no rematch."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

import codecrack
from codecrack.tutorials import LEARNER, tutorial
from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, bearer, seated

GAMES = ["coda", "coding", "alphacode"]


def start(client, game: str) -> dict:
    response = client.post(f"/api/tutorials/{game}", json={"name": "Learner"})
    assert response.status_code == 200, response.text
    return response.json()


def test_the_lessons_are_the_scripts_own(client):
    answer = client.get("/api/tutorials/coding").json()
    assert answer["lessons"] == tutorial("coding").lessons()
    assert answer["lessons"][1] == {"say": "order", "action": {"type": "order", "x1": 9, "x2": 8}, "at": 0}


def test_a_game_without_a_tutorial_is_404(client):
    assert client.get("/api/tutorials/toy").status_code == 404
    assert client.post("/api/tutorials/toy", json={}).status_code == 404


def test_the_client_cannot_choose_the_seed_or_anything_else(client):
    response = client.post("/api/tutorials/coda", json={"seed": 1})
    assert response.status_code == 400 and "seed" in response.json()["detail"]


def test_only_a_tutorial_seats_the_scripted_opponent(client):
    response = client.post("/api/tables", json={"game": "coda", "seats": [HUMAN, {"kind": "ai", "agent": "tutorial"}]})
    assert response.status_code == 400 and "tutorial" in response.json()["detail"]


@pytest.mark.parametrize("game", GAMES)
def test_the_learner_plays_the_script_and_the_opponent_answers_from_it(client, game):
    made = start(client, game)
    assert made["seat"] == LEARNER and made["table"]["seats"][1]["agent"] == "tutorial"
    script = tutorial(game)
    with seated(client, made["code"], made["token"]) as me:
        for step, move in enumerate(script.moves):
            me.state_at(step)
            if move.seat == LEARNER:
                me.act(move.action)
        final = me.state_at(len(script.moves))
    expected = codecrack.new_game(game, players=2, seed=script.seed, **script.options)
    for move in script.moves:
        expected.apply(move.seat, move.action)
    same = lambda view: {key: value for key, value in view.items() if key != "history"}  # noqa: E731
    assert same(final) == same(json.loads(json.dumps(expected.view(LEARNER))))  # the script's seed and moves
    if game != "coda":  # The Coding and Alphabet Code scripts end with the learner's win
        assert final["result"]["winners"] == [LEARNER]
        rematch = client.post(f"/api/tables/{made['code']}/rematch", headers=bearer(made["token"]))
        assert rematch.status_code == 400 and "tutorial" in rematch.json()["detail"]


def test_a_restarted_server_resumes_the_tutorial(tmp_path):
    """The scripted opponent is rebuilt from the stored table and plays its scripted turn."""
    script = tutorial("coda")
    opened, learner_turn = 1, script.moves[1:6]  # the opponent's opening; the learner's, and its first turn
    with TestClient(create_app(fast_config(tmp_path))) as client:
        made = start(client, "coda")
        with seated(client, made["code"], made["token"]) as me:
            me.state_at(opened)
    slow = fast_config(tmp_path, ai_pace=60.0)  # the opponent does not move before the restart
    with TestClient(create_app(slow)) as client:
        with seated(client, made["code"], made["token"]) as me:
            for step, move in enumerate(learner_turn, start=opened):
                me.state_at(step)
                me.act(move.action)
            me.state_at(opened + len(learner_turn))
    with TestClient(create_app(fast_config(tmp_path))) as client:
        with seated(client, made["code"], made["token"]) as me:
            after = me.state_at(9)  # the opponent's scripted turn: draw, guess, place
    expected = codecrack.new_game("coda", players=2, seed=script.seed, **script.options)
    for move in script.moves[:9]:
        expected.apply(move.seat, move.action)
    assert after == json.loads(json.dumps(expected.view(LEARNER)))


def test_tutorials_count_against_the_new_tables_limit(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, tables_per_minute=1))) as client:
        assert client.post("/api/tutorials/coda", json={}).status_code == 200
        refused = client.post("/api/tutorials/coda", json={})
        assert refused.status_code == 429 and "per minute" in refused.json()["detail"]

"""What the lobby's API offers a first visit (issue 25 §6, §4.1): AI tiers in order of strength,
plain option texts, a private tutorial, finished tables leaving the list, one table per submit."""

from __future__ import annotations

from fastapi.testclient import TestClient

from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, RANDOM, create, seated

LOBBY_GAMES = ["coda", "coding", "alphacode"]


def games(client) -> dict[str, dict]:
    return {game["name"]: game for game in client.get("/api/games").json()}


def test_the_lobby_offers_the_ai_tiers_weakest_first_and_no_research_agents(client):
    offered = games(client)
    for name in LOBBY_GAMES:
        assert offered[name]["tiers"] == ["random", "easy", "medium", "hard"], name
    assert {"greedy"} <= set(offered["coda"]["agents"]) and {"bluffer"} <= set(offered["coding"]["agents"])
    made = client.post("/api/tables", json={"game": "coda", "seats": [HUMAN, {"kind": "ai", "agent": "greedy"}]})
    assert made.status_code == 200  # research agents stay in the API


def test_option_texts_say_in_plain_words_what_no_choice_means(client):
    for name in LOBBY_GAMES:
        for option in games(client)[name]["options"]:
            assert "seed" not in option["help"] and "none " not in option["help"], (name, option)
            if option["kind"] == "seat":
                assert option["unset"], (name, option["name"])
    first = next(o for o in games(client)["coda"]["options"] if o["name"] == "first")
    assert (first["title"], first["unset"]) == ("Who starts", "drawn at random")
    thai = client.get("/api/games", headers={"accept-language": "th"}).json()
    assert next(o for o in thai[0]["options"] if o["name"] == "first")["unset"] != "drawn at random"


def test_a_tutorial_table_is_never_listed(client):
    code = client.post("/api/tutorials/coda", json={"name": "Learner"}).json()["code"]
    assert code not in {t["code"] for t in client.get("/api/tables").json()}


def test_a_finished_table_leaves_the_public_list_after_a_while(tmp_path):
    for listed_for, listed in ((600.0, True), (0.0, False)):
        with TestClient(create_app(fast_config(tmp_path / str(listed), finished_listed_for=listed_for))) as client:
            made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"first": 0, "target": 3})
            with seated(client, made["code"], made["token"]) as me:
                me.play_to_the_end(lambda view: {"type": "add", "amount": 1})
            playing = create(client, "toy", [HUMAN, HUMAN])["code"]
            codes = {t["code"] for t in client.get("/api/tables").json()}
            assert (made["code"] in codes, playing in codes) == (listed, True)


def test_a_repeated_submit_makes_one_table(client):
    body = {"game": "toy", "seats": [HUMAN, RANDOM], "sit": 0, "name": "Ann", "client_key": "k1"}
    first, again = (client.post("/api/tables", json=body).json() for _ in range(2))
    assert again["code"] == first["code"] and again["token"] == first["token"]
    other = client.post("/api/tables", json={**body, "client_key": "k2"}).json()
    assert other["code"] != first["code"]
    assert len(client.get("/api/tables").json()) == 2

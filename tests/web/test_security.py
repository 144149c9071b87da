"""What a hostile client may not do: choose the seed, set server-only options, send non-finite
numbers or malformed frames, or make the event loop do blocking work."""

import asyncio
import json

import pytest
from fastapi.testclient import TestClient

from codecrack.web import hub as hub_module
from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, RANDOM, create, seated

CODING = {"game": "coding", "seats": [HUMAN, HUMAN]}


def refused(response, *words: str) -> str:
    assert response.status_code == 400, response.text
    detail = response.json()["detail"]
    assert all(word in detail for word in words), detail
    return detail


def test_a_client_cannot_choose_the_seed(client):
    refused(client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN], "seed": 42}), "seed")


def test_the_seed_reaches_no_client_while_the_game_runs(client):
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"first": 1, "target": 9})
    code = made["code"]
    seed = str(client.app.state.hub.live[code].row.seed)
    texts = [json.dumps(made), client.get("/api/tables").text, client.get(f"/api/tables/{code}").text]
    with seated(client, code, made["token"]) as me, seated(client, code) as spectator:
        me.act({"type": "add", "amount": 1})
        me.state_at(2)
        spectator.state_at(2)
    texts += [json.dumps(me.log), json.dumps(spectator.log)]
    assert not any(seed in text for text in texts)


def test_a_seeded_table_needs_the_server_flag(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, allow_seed=True))) as client:
        made = create(client, "toy", [HUMAN, HUMAN], seed=42)
        assert client.app.state.hub.live[made["code"]].row.seed == 42


@pytest.mark.parametrize("seed", [2**63, 2**64, -1])
def test_a_seed_outside_64_bits_is_refused_not_a_server_error(tmp_path, seed):
    with TestClient(create_app(fast_config(tmp_path, allow_seed=True))) as client:
        refused(client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN], "seed": seed}), "seed")


@pytest.mark.parametrize("deck", ["/nonexistent/deck.json", "/dev/zero", "codecrack/games/coding/hack_deck.json"])
def test_the_coding_deck_file_cannot_be_named_over_http(client, deck):
    refused(client.post("/api/tables", json={**CODING, "options": {"deck": deck}}), "options.deck")


def test_the_catalogue_does_not_offer_server_only_options(client):
    coding = next(game for game in client.get("/api/games").json() if game["name"] == "coding")
    assert "deck" not in {field["name"] for field in coding["options"]}
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert "deck" not in schema["CodingOptions"]["properties"]


@pytest.mark.parametrize("body", [
    '{"game": "coding", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"answer_window": Infinity}}',
    '{"game": "coding", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"answer_window": NaN}}',
    '{"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}], "players": Infinity}',
])
def test_non_finite_numbers_are_refused_over_http(client, body):
    refused(client.post("/api/tables", content=body, headers={"content-type": "application/json"}))
    assert client.get("/api/tables").json() == []


def test_non_finite_numbers_are_refused_over_the_socket(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as me:
        me.ws.send_text('{"type": "action", "action": {"type": "add", "amount": Infinity}}')
        assert "finite" in me.until(lambda m: m["type"] == "error")["message"]
        me.ws.send_text('{"type": "action", "action": {"type": "add", "amount": [NaN]}}')
        assert "finite" in me.until(lambda m: m["type"] == "error")["message"]
        assert me.step == 0


def test_a_long_name_is_refused(client):
    made = create(client, "toy", [HUMAN, HUMAN])
    refused(client.post(f"/api/tables/{made['code']}/join", json={"seat": 0, "name": "x" * 41}), "name")
    refused(client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "human", "name": "x" * 1000}, HUMAN]}),
            "seats.0.name")


def test_a_lower_name_limit_comes_from_the_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("CODECRACK_MAX_NAME_LENGTH", "5")
    with TestClient(create_app(fast_config(tmp_path))) as client:
        made = create(client, "toy", [HUMAN, HUMAN])
        refused(client.post(f"/api/tables/{made['code']}/join", json={"seat": 0, "name": "Annabel"}), "at most 5")
        assert client.post(f"/api/tables/{made['code']}/join", json={"seat": 0, "name": "Ann"}).status_code == 200


def test_deeply_nested_json_and_binary_frames_get_an_error_and_the_socket_lives_on(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as me:
        me.ws.send_text('{"type": "action", "action": {"type": "add", "amount": ' + "[" * 3000 + "]" * 3000 + "}}")
        assert "JSON" in me.until(lambda m: m["type"] == "error")["message"]
        me.ws.send_bytes(b"\x00\x01binary")
        assert "binary" in me.until(lambda m: m["type"] == "error")["message"]
        me.ws.send_json({"type": "ping"})
        me.until(lambda m: m["type"] == "pong")


def test_creating_and_loading_games_run_off_the_event_loop(client, monkeypatch):
    on_loop: list[bool] = []

    def watched(function):
        def call(*args, **kwargs):
            try:
                asyncio.get_running_loop()
                on_loop.append(True)
            except RuntimeError:
                on_loop.append(False)
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(hub_module, "new_game", watched(hub_module.new_game))
    monkeypatch.setattr(hub_module, "replay", watched(hub_module.replay))
    made = create(client, "toy", [HUMAN, HUMAN])
    client.app.state.hub.live.pop(made["code"])  # as after a restart: the next request loads it
    assert client.get(f"/api/tables/{made['code']}").status_code == 200
    assert on_loop == [False, False]


@pytest.mark.parametrize("path", ["/", "/t/ABCDE", "/static/js/main.js", "/api/games", "/api/tables/NOPE1",
                                  "/openapi.json"])
def test_every_answer_carries_the_security_headers(client, path):
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_the_docs_page_that_loads_a_cdn_is_off_but_the_schema_is_served(client):
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert "/api/tables" in client.get("/openapi.json").json()["paths"]

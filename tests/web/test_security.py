"""What a hostile client may not do: choose the seed, set server-only options, send non-finite
numbers or malformed frames, or make the event loop do blocking work."""

import asyncio
import json

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from codecrack.web import hub as hub_module
from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, RANDOM, bearer, create, seated

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
        me.state_at(1)  # the AI's first move, which comes from a worker process (sent at step 0, the add is refused)
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


@pytest.mark.parametrize(
    "body",
    [
        '{"game": "coding", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"answer_window": Infinity}}',
        '{"game": "coding", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"answer_window": NaN}}',
        '{"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}], "players": Infinity}',
    ],
)
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
    refused(
        client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "human", "name": "x" * 1000}, HUMAN]}),
        "seats.0.name",
    )


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


@pytest.mark.parametrize(
    "path", ["/", "/t/ABCDE", "/static/js/main.js", "/api/games", "/api/tables/NOPE1", "/openapi.json"]
)
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


def finished_toy(client) -> dict:
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"first": 0, "target": 2})
    with seated(client, made["code"], made["token"]) as me:
        me.play_to_the_end(lambda view: {"type": "add", "amount": 2})
    return made


def test_a_seat_token_in_a_url_counts_for_nothing(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
    with client.websocket_connect(f"/ws/{made['code']}?token={made['token']}") as websocket:
        websocket.send_json({"type": "hello", "token": None})
        assert websocket.receive_json()["seat"] is None
    done = finished_toy(client)
    assert client.get(f"/api/tables/{done['code']}/replay?token={done['token']}").json()["seat"] is None
    assert client.get(f"/api/tables/{done['code']}/replay", headers=bearer(done["token"])).json()["seat"] == 0


def test_the_front_end_puts_no_token_in_a_url():
    from pathlib import Path

    import codecrack.web

    scripts = (Path(codecrack.web.__file__).parent / "static" / "js").rglob("*.js")
    assert not any("token=" in script.read_text() for script in scripts)


def test_a_socket_must_say_hello_first(client):
    made = create(client, "toy", [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/{made['code']}") as websocket:
        websocket.send_json({"type": "ping"})
        assert "hello" in websocket.receive_json()["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            websocket.receive_json()
        assert closed.value.code == 1008


def test_only_a_seated_player_may_start_a_rematch(client):
    done = finished_toy(client)
    rematch = f"/api/tables/{done['code']}/rematch"
    assert client.post(rematch).status_code == 403
    assert client.post(rematch, headers=bearer("forged")).status_code == 403
    assert client.get(f"/api/tables/{done['code']}").json()["rematch"] is None
    assert client.post(rematch, headers=bearer(done["token"])).status_code == 200


def test_a_seat_token_expires(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, token_hours=1e-9))) as client:
        made = create(client, "toy", [HUMAN, HUMAN], sit=0)  # the token is already stale
        with seated(client, made["code"], made["token"]) as me:
            assert next(m for m in me.log if m["type"] == "hello")["seat"] is None


def test_the_newest_connection_of_a_seat_wins(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as older:
        with seated(client, made["code"], made["token"]) as newer:
            notice = older.until(lambda m: m["type"] == "error")
            assert "another window" in notice["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                older.receive()
            assert closed.value.code == 4001
            newer.act({"type": "add", "amount": 1})
            assert newer.state_at(1)["total"] == 1
            table = client.get(f"/api/tables/{made['code']}").json()
            assert table["seats"][0]["connected"]


def test_no_seat_token_reaches_the_access_log(tmp_path):
    import logging

    import httpx
    from websockets.sync.client import connect

    from .browser import running_server

    lines: list[str] = []
    handler = logging.Handler(logging.INFO)
    handler.emit = lambda record: lines.append(record.getMessage())
    loggers = [logging.getLogger(name) for name in ("uvicorn.access", "uvicorn.error")]
    with running_server(fast_config(tmp_path)) as url:
        for logger in loggers:
            logger.setLevel(logging.INFO)
            logger.addHandler(handler)
        try:
            made = httpx.post(
                f"{url}/api/tables",
                json={"game": "toy", "seats": [HUMAN, RANDOM], "sit": 0, "options": {"first": 0, "target": 2}},
            ).json()
            with connect(f"{url.replace('http', 'ws', 1)}/ws/{made['code']}") as socket:
                socket.send(json.dumps({"type": "hello", "token": made["token"]}))
                socket.send(json.dumps({"type": "action", "action": {"type": "add", "amount": 2}}))
                while '"over": true' not in socket.recv(timeout=10).replace('"over":true', '"over": true'):
                    pass
            headers = bearer(made["token"])
            httpx.get(f"{url}/api/tables/{made['code']}/replay", headers=headers).raise_for_status()
            httpx.post(f"{url}/api/tables/{made['code']}/rematch", headers=headers).raise_for_status()
        finally:
            for logger in loggers:
                logger.removeHandler(handler)
    assert any("/replay" in line for line in lines) and any("/ws/" in line for line in lines)
    assert not any(made["token"] in line for line in lines)

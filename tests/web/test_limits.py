"""The limits a public server needs (each set from the settings, docs/security.md lists them)."""

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from codecrack.web.app import create_app
from codecrack.web.limits import TokenBucket

from .conftest import fast_config
from .wsclient import HUMAN, create, seated


@pytest.fixture
def limited(tmp_path, request):
    """A client of a server with the settings given by ``@pytest.mark.parametrize("limited", [...])``."""
    with TestClient(create_app(fast_config(tmp_path, **request.param))) as client:
        yield client


def closed_with(websocket, code: int) -> str:
    """The error message the server sent before closing with ``code``."""
    for _ in range(5):  # a greeting or a table notice may come first
        message = websocket.receive_json()
        if message["type"] == "error":
            break
    assert message["type"] == "error", message
    with pytest.raises(WebSocketDisconnect) as closed:
        websocket.receive_json()
    assert closed.value.code == code
    return message["message"]


def test_a_big_http_body_is_refused_before_parsing(client):
    body = {"game": "toy", "seats": [HUMAN, HUMAN], "name": "x" * 20_000}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 413 and "bytes" in response.json()["detail"]
    assert client.get("/api/tables").json() == []


def test_a_big_websocket_message_closes_the_socket(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0)
    with seated(client, made["code"], made["token"]) as me:
        me.ws.send_json({"type": "ping", "padding": "x" * 20_000})
        assert "bytes" in closed_with(me.ws, 1009)


@pytest.mark.parametrize("limited", [{"messages_per_second": 0.001, "message_burst": 3}], indirect=True)
def test_messages_over_the_rate_are_dropped_with_one_notice(limited):
    made = create(limited, "toy", [HUMAN, HUMAN], sit=0)
    with seated(limited, made["code"], made["token"]) as me:
        for _ in range(10):
            me.ws.send_json({"type": "ping"})
        me.ws.send_json({"type": "ping"})
        me.until(lambda m: m["type"] == "error" and "too many messages" in m["message"])
        pongs = sum(m["type"] == "pong" for m in me.log)
    assert pongs == 3
    assert sum("too many" in m.get("message", "") for m in me.log) == 1


@pytest.mark.parametrize("limited", [{"tables_per_minute": 2}], indirect=True)
def test_one_address_creates_a_bounded_number_of_tables_per_minute(limited):
    body = {"game": "toy", "seats": [HUMAN, HUMAN]}
    assert [limited.post("/api/tables", json=body).status_code for _ in range(3)] == [200, 200, 429]
    assert len(limited.get("/api/tables").json()) == 2


@pytest.mark.parametrize("limited", [{"connections_per_address": 2}], indirect=True)
def test_one_address_opens_a_bounded_number_of_sockets(limited):
    code = create(limited, "toy", [HUMAN, HUMAN])["code"]
    with seated(limited, code), seated(limited, code):
        with limited.websocket_connect(f"/ws/{code}") as third:
            assert "connections" in closed_with(third, 1008)
    with seated(limited, code) as again:  # closed ones no longer count
        assert again.view is not None


@pytest.mark.parametrize("limited", [{"spectators_per_table": 1}], indirect=True)
def test_a_table_takes_a_bounded_number_of_spectators_but_always_its_players(limited):
    made = create(limited, "toy", [HUMAN, HUMAN], sit=0)
    with seated(limited, made["code"]):
        with limited.websocket_connect(f"/ws/{made['code']}") as second:
            second.send_json({"type": "hello", "token": None})
            assert "spectators" in closed_with(second, 1008)
        with seated(limited, made["code"], made["token"]) as player:
            assert next(m for m in player.log if m["type"] == "hello")["seat"] == 0


def test_a_token_bucket_has_no_dict():
    """One bucket per socket (its message rate): slotted, it holds no dict."""
    assert not hasattr(TokenBucket(2, 2, 0.0), "__dict__")

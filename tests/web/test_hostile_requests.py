"""Hostile requests get a clean, cheap refusal (issue 24 §3): slow and idle connections are cut off
and capped per address, a malformed Accept-Language is ignored, every error answer carries the
security headers, nothing a client sends logs an ERROR, wrong types and out-of-range numbers are
refused, a name with a control character is refused on every database, and X-Forwarded-For is
believed only from a trusted proxy (issue 24 §4)."""

import base64
import json
import logging
import os
import socket

import httpx
import pytest
from fastapi.testclient import TestClient

from codecrack.web.app import create_app
from codecrack.web.middleware import SECURITY_HEADERS

from .conftest import fast_config
from .live_server import GUARD, RawSocket, live_server

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes ``sock`` (reset or not)."""
    sock.settimeout(GUARD)
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except ConnectionResetError:
        pass
    return data


@pytest.mark.parametrize("header", ["en;q=1.2.3", "en;q=.", "en;q=..", "th;q=1e9, *;q=abc", "\x7f;q=,"])
def test_a_malformed_accept_language_is_ignored_over_http_and_the_socket(client, header):
    """Before: `en;q=1.2.3` answered 500 with a traceback, over HTTP and on the websocket upgrade."""
    assert client.get("/api/games", headers={"accept-language": header}).status_code == 200
    made = client.post("/api/tables", json={"game": "coda", "seats": HUMANS}).json()
    with client.websocket_connect(f"/ws/{made['code']}", headers={"accept-language": header}) as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["type"] == "hello"


def test_a_server_error_carries_the_security_headers(tmp_path):
    """Before: Starlette's own 500 page, sent outside every middleware, had none of them."""
    with TestClient(create_app(fast_config(tmp_path)), raise_server_exceptions=False) as client:

        def broken():
            raise RuntimeError("a fault of the server's own")

        client.app.state.hub.store.list_tables = broken
        answered = client.get("/api/tables")
    assert answered.status_code == 500 and answered.json() == {"detail": "internal server error"}
    for name, value in SECURITY_HEADERS.items():
        assert answered.headers[name] == value


@pytest.mark.parametrize(
    "change",
    [
        {"sit": False},
        {"sit": True},
        {"sit": "0"},
        {"players": True},
        {"players": 2.0},
        {"game": "coding", "options": {"answer_window": "10"}},
        {"game": "coding", "options": {"answer_window": True}},
        {"game": "coding", "options": {"notes": "yes"}},
        {"game": "coding", "options": {"notes": 1}},
        {"game": "alphacode", "options": {"letters": 10.0}},
        {"game": "coding", "options": {"answer_window": 5e-324}},
        {"game": "coding", "options": {"answer_window": 1e308}},
    ],
)
def test_wrong_types_and_numbers_out_of_range_are_refused(client, change):
    """Before: each was accepted (`"sit": false` as seat 0, `"10"` as 10, 5e-324 as an instant
    answer window, 1e308 as a slapper who holds the table for ever)."""
    answered = client.post("/api/tables", json={"game": "coda", "seats": HUMANS, **change})
    assert answered.status_code == 400, answered.text
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize("seat", [True, "1", 1.0])
def test_a_seat_is_a_number_when_joining(client, seat):
    made = client.post("/api/tables", json={"game": "coda", "seats": HUMANS}).json()
    assert client.post(f"/api/tables/{made['code']}/join", json={"seat": seat}).status_code == 400
    assert not any(s["claimed"] for s in client.get(f"/api/tables/{made['code']}").json()["seats"])


def control_character_names(client):
    """Every way a name reaches the database, with a NUL (and a line break): each a 400, nothing stored."""
    for name in ("Ann\x00", "A\nB", "\x1b[31mred"):
        sit = client.post("/api/tables", json={"game": "coda", "seats": HUMANS, "sit": 0, "name": name})
        assert sit.status_code == 400 and "control characters" in sit.json()["detail"], sit.text
        seats = [{"kind": "human", "name": name}, {"kind": "human"}]
        assert client.post("/api/tables", json={"game": "coda", "seats": seats}).status_code == 400
        assert client.post("/api/tutorials/coda", json={"name": name}).status_code == 400
    assert client.get("/api/tables").json() == []
    made = client.post("/api/tables", json={"game": "coda", "seats": HUMANS}).json()
    assert client.post(f"/api/tables/{made['code']}/join", json={"seat": 0, "name": "Ann\x00"}).status_code == 400
    assert not any(s["claimed"] for s in client.get(f"/api/tables/{made['code']}").json()["seats"])


def test_control_characters_in_names_are_refused_on_sqlite(client):
    control_character_names(client)


def test_control_characters_in_names_are_refused_on_postgresql(tmp_path, postgres_url):
    """Before: on PostgreSQL a NUL answered 503 "please try again" and left the table stored
    without its creator's seat, one more for each retry."""
    with TestClient(create_app(fast_config(tmp_path, db_url=postgres_url))) as client:
        control_character_names(client)


@pytest.fixture
def server(tmp_path):
    config = fast_config(
        tmp_path, header_timeout=0.5, body_timeout=0.5, idle_timeout=0.5, http_connections_per_address=4
    )
    with live_server(config) as address:
        yield address


@pytest.fixture
def errors():
    """Every ERROR (or worse) that the server's loggers write while the test runs."""
    found = []

    class Catch(logging.Handler):
        def emit(self, record):
            found.append(f"{record.name}: {record.getMessage()}")

    catch = Catch(logging.ERROR)
    loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "codecrack")]
    for logger in loggers:
        logger.addHandler(catch)
    yield found
    for logger in loggers:
        logger.removeHandler(catch)


def test_connections_that_drip_their_headers_or_say_nothing_are_cut_off(server):
    """Before: 240 such connections stayed open for 100 s, and nothing ended them."""
    silent, dripping = socket.create_connection(server), socket.create_connection(server)
    dripping.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # and never the rest
    assert answer(silent) == b"" and answer(dripping) == b""  # closed, within the guard


def test_a_connection_idle_after_its_answer_is_closed(server):
    idle = socket.create_connection(server)
    idle.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answer(idle).startswith(b"HTTP/1.1 200")  # read to the end: the server closed it


def test_a_body_that_does_not_arrive_is_answered_408(server):
    slow = socket.create_connection(server)
    slow.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    assert answer(slow).startswith(b"HTTP/1.1 408")


def test_open_http_connections_are_capped_per_address(server, caplog):
    """Before: 1,004 idle sockets from one address used up the server's file descriptors, and
    nothing was logged."""
    held = [socket.create_connection(server) for _ in range(4)]
    for sock in held:  # each holds a request open: its headers are not complete
        sock.sendall(b"GET /api/games HTTP/1.1\r\n")
    one_more = socket.create_connection(server)
    one_more.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    with caplog.at_level(logging.WARNING, logger="codecrack.web"):
        assert answer(one_more) == b""  # closed without an answer
    assert any("open HTTP connections: refusing more" in record.getMessage() for record in caplog.records)
    for sock in held:
        sock.close()
    again = socket.create_connection(server)
    again.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer(again).startswith(b"HTTP/1.1 200")


def test_refused_sockets_whose_client_left_and_invalid_utf8_log_no_error(server, errors):
    """Before: each refused socket whose client had gone logged "ERROR: Exception in ASGI
    application" (100 of 100), and an invalid UTF-8 frame an ERROR with a traceback."""
    for n in range(20):
        gone = socket.create_connection(server)
        key = base64.b64encode(os.urandom(16)).decode()
        gone.sendall(
            f"GET /ws/NOPE{n} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        gone.close()
    made = socket.create_connection(server)
    body = json.dumps({"game": "coda", "seats": HUMANS}).encode()
    made.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    code = json.loads(answer(made).split(b"\r\n\r\n", 1)[1])["code"]
    raw = RawSocket(server, f"/ws/{code}")
    raw.send({"type": "hello", "token": None})
    payload, mask = b'"\xff\xfe"', os.urandom(4)
    raw.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    assert raw.read_all()[1] == 1007
    probe = socket.create_connection(server)  # the server has handled every socket above by now
    probe.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer(probe).startswith(b"HTTP/1.1 200")
    assert errors == []


@pytest.mark.parametrize("proxy, answers", [("", [200, 200, 429]), ("127.0.0.1", [200, 200, 200])])
def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(tmp_path, proxy, answers):
    """Before: uvicorn believed X-Forwarded-For from 127.0.0.1 by default, so a client on the
    server's host named a new address, with fresh limits, in each request (as the trusted proxy row
    shows)."""
    with live_server(fast_config(tmp_path, tables_per_minute=2, trusted_proxies=proxy)) as (host, port):
        made = [
            httpx.post(
                f"http://{host}:{port}/api/tables",
                json={"game": "coda", "seats": HUMANS},
                headers={"x-forwarded-for": f"10.0.0.{n}"},
                timeout=GUARD,
            ).status_code
            for n in range(3)
        ]
    assert made == answers

"""Fuzzing against a real server: the HTTP API driven by its OpenAPI schema (schemathesis), and the
websocket driven by hypothesis. No case may get a 5xx, and no exception may reach the server's log."""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from contextlib import contextmanager

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from websockets.sync.client import connect

from codecrack.web.config import WebConfig
from codecrack.web.schema import client_message, read_client_message, server_message

from .browser import running_server
from .wsclient import HUMAN, RANDOM, bearer

CASES_PER_OPERATION = 30  # positive and negative each: a bounded run (~ 500 cases in all)
SOCKET_CASES = 150
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
FUZZ = settings(deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))


def fuzz(cases: int) -> settings:
    return settings(FUZZ, max_examples=cases)


class Errors(logging.Handler):
    """Keeps every ERROR record logged anywhere (an unhandled exception in a route, a socket, a task)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()} {record.exc_text or ''}")


@contextmanager
def logged_errors():
    handler = Errors()
    logging.getLogger().addHandler(handler)
    try:
        yield handler.records
    finally:
        logging.getLogger().removeHandler(handler)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real server with one running and one finished table (their codes and seat tokens)."""
    folder = tmp_path_factory.mktemp("fuzz")
    config = WebConfig(
        db_url=f"sqlite:///{folder}/web.db",
        ai_pace=0.0,
        disconnect_timeout=0.0,
        tables_per_minute=100_000,
        messages_per_second=1e6,
        message_burst=10**6,
    )
    with logged_errors() as errors, running_server(config) as url:
        running = made(url, "coda", [HUMAN, HUMAN], sit=0)
        yield {"url": url, "errors": errors, "tables": [running, finished_table(url)]}


def made(url: str, game: str, seats: list, **body) -> dict:
    response = httpx.post(f"{url}/api/tables", json={"game": game, "seats": seats, **body})
    assert response.status_code == 200, response.text
    return response.json()


def finished_table(url: str) -> dict:
    """A Coda game whose seated player leaves at once: the takeover AI plays it to the end."""
    table = made(url, "coda", [HUMAN, RANDOM], sit=0, takeover="random")
    with connect(f"{url.replace('http', 'ws', 1)}/ws/{table['code']}") as socket:
        socket.send(json.dumps({"type": "hello", "token": table["token"]}))
        socket.recv(timeout=10)
    for _ in range(600):
        if httpx.get(f"{url}/api/tables/{table['code']}").json()["over"]:
            return table
        time.sleep(0.05)
    raise AssertionError("the takeover AI did not finish the game")


def operations(url: str):
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
    return [result.ok() for result in schema.get_all_operations()]


def cases(operation, tables: list[dict]):
    """Generated cases, positive and negative; for paths with a table code, also the real tables,
    with and without their seat token."""
    choices = []
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        choices.append(operation.as_strategy(generation_mode=mode))
        if "{code}" in operation.path:
            for table in tables:
                choices.append(operation.as_strategy(generation_mode=mode, path_parameters={"code": table["code"]}))
                choices.append(
                    operation.as_strategy(
                        generation_mode=mode, path_parameters={"code": table["code"]}, headers=bearer(table["token"])
                    )
                )
    return st.one_of(choices)


@pytest.mark.long
def test_the_http_api_survives_schema_driven_fuzzing(server):
    tally: Counter[str] = Counter()
    with httpx.Client(base_url=server["url"]) as http:  # the server also exists for the socket fuzz
        http.get("/api/games").raise_for_status()
    for operation in operations(server["url"]):

        @fuzz(CASES_PER_OPERATION * 2)
        @given(case=cases(operation, server["tables"]))
        def run(case):
            response = case.call(base_url=server["url"])
            tally["cases"] += 1
            tally["5xx"] += response.status_code >= 500
            case.validate_response(response, checks=CHECKS)

        run()
    print(f"\nHTTP fuzz: {tally['cases']} cases, {tally['5xx']} answers 5xx, {len(server['errors'])} errors logged")
    assert tally["cases"] >= CASES_PER_OPERATION
    assert tally["5xx"] == 0 and server["errors"] == []


JSON_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20)
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20,
)
ACTION = st.fixed_dictionaries(
    {"type": st.sampled_from(["draw", "guess", "stop", "reveal", "opening", "x"])},
    optional={
        "color": st.sampled_from(["black", "white", "red"]),
        "target": JSON,
        "index": JSON,
        "value": JSON,
        "black": JSON,
    },
)
MESSAGE = st.one_of(
    st.fixed_dictionaries({"type": st.just("action"), "action": ACTION}),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "hint", "ping", "hello", "dance"])},
        optional={"action": JSON, "token": JSON, "extra": JSON},
    ),
    JSON,
)
FRAME = st.one_of(
    MESSAGE.map(lambda message: json.dumps(message, allow_nan=True)),
    st.text(max_size=60),
    st.binary(max_size=40),
    st.integers(1, 3000).map(lambda depth: '{"type": "action", "action": ' + "[" * depth + "]" * depth + "}"),
)


def read(reader, text: str):
    """What ``reader`` makes of ``text``: the message's fields, or the errors that refuse it."""
    try:
        return reader(text).model_dump()
    except ValidationError as error:
        return [(problem["type"], problem["loc"], problem["msg"]) for problem in error.errors()]


NUMBERS = st.sampled_from(
    [
        "NaN",
        "-Infinity",
        "1e400",
        "-1e999",
        "1.7976931348623157e308",
        "123456789012345678901234567890",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "-0.0",
        "1E5",
        "01",
        "1.",
        '"\\ud800"',
        '"\\u0000"',
    ]
)
WITH_NUMBERS = NUMBERS.map(lambda number: '{"type": "action", "action": {"type": "guess", "value": [%s]}}' % number)


def object_text(pairs: list[tuple[str, str]]) -> str:
    """A JSON object's text from ``(key, value text)`` pairs, keys repeated as they come."""
    return "{" + ", ".join(f"{json.dumps(key)}: {value}" for key, value in pairs) + "}"


def as_text(value) -> str:
    return value if isinstance(value, str) and value[:1] == "{" else json.dumps(value, allow_nan=True)


ACTION_TEXT = st.lists(
    st.tuples(
        st.sampled_from(["type", "color", "value"]),
        st.sampled_from(["draw", "guess", "black", 1, None]).map(json.dumps),
    ),
    min_size=1,
    max_size=4,
).map(object_text)
# objects whose keys may come twice (JSON leaves it open; both readers must take the same value)
DUPLICATE_KEYS = st.lists(
    st.tuples(
        st.sampled_from(["type", "action", "ref"]),
        st.one_of(
            st.sampled_from(["action", "ping", "resync", "r1", "r 2"]).map(json.dumps),
            ACTION_TEXT,
            ACTION.map(json.dumps),
            JSON.map(as_text),
        ),
    ),
    min_size=2,
    max_size=5,
).map(object_text)


@fuzz(600)
@given(
    text=st.one_of(
        FRAME.filter(lambda frame: isinstance(frame, str)),
        WITH_NUMBERS,
        DUPLICATE_KEYS,
        MESSAGE.map(
            lambda message: (
                json.dumps({**message, "ref": "r1"}, allow_nan=True)
                if isinstance(message, dict)
                else json.dumps(message, allow_nan=True)
            )
        ),
    )
)
def test_the_quick_reading_of_client_messages_accepts_and_refuses_exactly_as_the_full_models(text):
    assert read(read_client_message, text) == read(client_message.validate_json, text)


def test_the_websocket_survives_hypothesis_fuzzing(server):
    url = server["url"].replace("http", "ws", 1)
    running = server["tables"][0]
    tally: Counter[str] = Counter()
    with connect(f"{url}/ws/{running['code']}", max_size=None) as socket:
        socket.send(json.dumps({"type": "hello", "token": running["token"]}))

        @fuzz(SOCKET_CASES)
        @given(frame=FRAME)
        def run(frame):
            socket.send(frame)
            socket.send('{"type": "ping"}')
            while server_message.validate_json(socket.recv(timeout=10)).type != "pong":  # both answered
                pass
            tally["cases"] += 1

        run()
    time.sleep(0.2)  # let the server log anything the closing socket caused
    print(f"\nwebsocket fuzz: {tally['cases']} cases, {len(server['errors'])} errors logged")
    assert tally["cases"] == SOCKET_CASES and server["errors"] == []

"""Refusals of the HTTP API and the websocket in the client's language: pydantic's validation errors
written from their type through the catalogue, and the engine's IllegalAction shown to a player."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter, ValidationError

from codecrack.core.validation import MESSAGES, explain_error, problem
from codecrack.i18n import language, translate
from codecrack.web.app import create_app
from codecrack.web.config import WebConfig
from codecrack.web.schema import JoinRequest, client_hello, client_message, create_table_model

HUMAN = {"kind": "human"}
BAD_TABLES = [
    {"game": "chess", "seats": [HUMAN]},
    {"seats": [HUMAN]},
    {"game": "coda", "seats": [{"kind": "robot", "name": "x" * 99}], "players": 99, "sit": -1, "seed": "a", "zz": 1},
    {"game": "coda", "seats": [], "options": {"dashes": "maybe"}, "players": 1.5, "name": 5},
    {"game": "coda", "seats": "x"},
    {"game": "coda", "seats": [HUMAN] * 20, "takeover": ["x"], "seed": 2**64},
    {"game": "alphacode", "seats": [HUMAN], "options": {"creator": "x", "real_words": 3}},
    "not an object",
]
# refused by the server's own checks (OptionError), past pydantic's
REFUSED_TABLES = [
    {"game": "coda", "players": 3, "seats": [HUMAN, HUMAN]},
    {"game": "coda", "seats": [HUMAN] * 9},
    {"game": "coda", "seats": [HUMAN, {"kind": "ai", "agent": "genius"}]},
    {"game": "coda", "seats": [HUMAN, HUMAN], "takeover": "genius"},
    {"game": "coda", "seats": [HUMAN, HUMAN], "options": {"rounds": 2}},
    {"game": "alphacode", "seats": [HUMAN, HUMAN], "options": {"creator": 1}},
]
BAD_MESSAGES = [
    "not json",
    '{"type": "dance"}',
    "[]",
    '{"type": "action", "action": [1]}',
    '{"type": "action"}',
    '{"type": "action", "action": {"x": NaN}}',
    '{"type": "ping", "extra": 1}',
]


def _errors():
    model = create_table_model(["alphacode", "coda", "coding"])
    checks = [
        (TypeAdapter(model).validate_python, BAD_TABLES),
        (client_message.validate_json, BAD_MESSAGES),
        (client_hello.validate_json, ['{"type": "hello", "token": 5}', '{"type": "hi"}']),
        (JoinRequest.model_validate, [{"seat": 99}, {"seat": "x"}, {}]),
    ]
    for validate, cases in checks:
        for case in cases:
            with pytest.raises(ValidationError) as caught:
                validate(case)
            yield from caught.value.errors()


def test_every_validation_error_the_api_meets_has_a_catalogue_text():
    errors = list(_errors())
    kinds = {error["type"] for error in errors}
    assert sorted(kinds - set(MESSAGES) - {"json_invalid"}) == []
    with language("th"):
        thai = [explain_error(error) for error in errors]
    assert [text for text in thai if text.isascii()] == [], "a text left in English"


def test_a_validation_line_is_written_in_the_current_language():
    with pytest.raises(ValidationError) as caught:
        JoinRequest.model_validate({"seat": "x", "colour": 1})
    with language("th"):
        line = problem(caught.value.errors())
    assert line == (
        f"seat: {translate('must be a whole number', 'th')}; "
        f"colour: {translate('not accepted (unknown, or set only by the server)', 'th')}"
    )


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ai_pace=0.0))) as test_client:
        yield test_client


@pytest.mark.parametrize("body", BAD_TABLES + REFUSED_TABLES)
def test_an_invalid_body_is_answered_in_thai_with_the_same_shape(client, body):
    english = client.post("/api/tables", json=body)
    thai = client.post("/api/tables", json=body, headers={"accept-language": "th-TH"})
    assert english.status_code == thai.status_code == 400
    assert set(thai.json()) == {"detail"} and thai.json()["detail"] != english.json()["detail"]
    assert any("\u0e00" <= char <= "\u0e7f" for char in thai.json()["detail"])


def test_an_illegal_action_is_answered_in_the_players_language(client):
    made = client.post("/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN], "sit": 0}).json()
    with client.websocket_connect(f"/ws/{made['code']}?lang=th") as player:
        player.send_json({"type": "hello", "token": made["token"]})
        player.send_json({"type": "action", "action": {"type": "fly"}})
        player.send_json({"type": "dance"})
        errors = []
        while len(errors) < 2:
            message = player.receive_json()
            if message["type"] == "error":
                errors.append(message["message"])
    assert errors[0] == translate("unknown action type {kind!r}; Coda actions are {kinds}", "th").format(
        kind="fly", kinds="draw, guess, opening, place, ready, reveal, stop, timeout"
    )
    assert errors[1] == translate("a message must be a JSON object whose 'type' is action, hint, ping or resync", "th")

""" "My games" (``GET /api/me/games``): the session player's unfinished tables, those where it is
their move first, from the live table or, unloaded, from a turn-based table's stored deadline."""

from datetime import datetime

import pytest
from fastapi.testclient import TestClient

from codecrack.web.app import create_app

from .conftest import fast_config
from .test_quick_match import Guest
from .wsclient import HUMAN

TURNS = {"game": "toy", "seats": [HUMAN, HUMAN], "turn_hours": 24}


@pytest.fixture
def server(tmp_path):
    with TestClient(create_app(fast_config(tmp_path))) as client:
        yield client


def made(guest: Guest, **body) -> str:
    answer = guest.client.post("/api/tables", json={**TURNS, **body}, headers=guest.headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["code"]


def games(guest: Guest) -> list[dict]:
    answer = guest.client.get("/api/me/games", headers=guest.headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_tables_where_it_is_my_move_come_first(server):
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    theirs = made(ann, sit=0, options={"first": 1})
    mine = made(ann, sit=0, options={"first": 0})
    joined = server.post(f"/api/tables/{theirs}/join", json={"seat": 1}, headers=bob.headers)
    assert joined.status_code == 200, joined.text
    listed = games(ann)
    assert [(game["code"], game["your_move"]) for game in listed] == [(mine, True), (theirs, False)]
    assert datetime.fromisoformat(listed[0]["deadline"]) and listed[1]["deadline"] is None
    assert [(game["code"], game["seat"], game["your_move"]) for game in games(bob)] == [(theirs, 1, True)]
    hub = server.app.state.hub

    async def unload_all():  # unloaded, the stored deadlines say whose move it is
        for table in list(hub.live.values()):
            hub.unload(table)

    server.portal.call(unload_all)
    assert not hub.live
    assert games(ann) == listed


def test_a_table_where_i_sit_nowhere_is_not_listed(server):
    ann = Guest(server, "Ann")
    made(ann, options={"first": 0})  # Ann made it but sat nowhere
    assert games(ann) == []


def test_without_a_session_there_are_no_games(server):
    server.cookies.clear()
    assert server.get("/api/me/games").status_code == 401

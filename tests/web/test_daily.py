"""The daily Alphabet Code over HTTP: one scored attempt a day, practice codes, the result after
the end, streaks, and nothing about the code before the end (a leak test)."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from codecrack.games.alphacode import daily
from codecrack.games.alphacode.codes import legal_codes
from codecrack.games.alphacode.daily import Solo, code_of_day, hard_count
from codecrack.web import daily_routes
from codecrack.web.app import create_app
from codecrack.web.store import server_secrets

from .conftest import fast_config
from .test_players import guest

DAY = date(2026, 12, 3)


@pytest.fixture
def today(monkeypatch):
    """The server's UTC date, set by the test."""
    clock = {"day": DAY}
    monkeypatch.setattr(daily_routes, "utc_today", lambda: clock["day"])
    return clock


@pytest.fixture
def client(client):
    """A guest's client: the daily puzzles are the session player's."""
    guest(client)
    return client


def start(client, practice=False):
    response = client.post("/api/daily/alphacode", json={"practice": practice})
    assert response.status_code == 200, response.text
    return response.json()


def play(client, attempt, action, status=200):
    response = client.post(f"/api/daily/alphacode/{attempt['id']}", json={"action": action})
    assert response.status_code == status, response.text
    return response.json()


def secret_of(client) -> bytes:
    with client.app.state.hub.store.engine.begin() as db:
        query = select(server_secrets.c.value).where(server_secrets.c.name == daily_routes.SECRET_NAME)
        return bytes.fromhex(db.execute(query).scalar_one())


def the_code(client, attempt) -> list[dict]:
    """The code of a daily attempt, from the server's secret."""
    return legal_codes().code_json(code_of_day(secret_of(client), date.fromisoformat(attempt["day"])))


def test_one_scored_attempt_a_day_and_the_result_after_solving(client, today):
    attempt = start(client)
    assert start(client)["id"] == attempt["id"]  # the same attempt again: one a day
    assert attempt["day"] == DAY.isoformat() and not attempt["over"] and attempt["result"] is None
    play(client, attempt, {"type": "count", "row": "O", "column": "D"})
    code = the_code(client, attempt)
    done = play(client, attempt, {"type": "declare", "letters": code})
    assert done["over"] and done["solved"] and done["score"] == 1
    result = done["result"]
    assert result["code"] == code
    assert result["hard"] == hard_count(code_of_day(secret_of(client), DAY))
    assert result["distribution"] == {"scores": {"1": 1}, "unsolved": 0}
    assert done["streak"] == {"current": 1, "best": 1}
    play(client, attempt, {"type": "filled", "row": "N", "column": "B"}, status=400)  # over: nothing more
    assert start(client)["id"] == attempt["id"]  # and no second scored attempt today


def test_share_text_holds_no_letter_or_square_of_the_code(client, today):
    attempt = start(client)
    for question in ({"type": "count", "row": "O", "column": "B"}, {"type": "filled", "row": "N", "column": "B"}):
        play(client, attempt, question)
    code = the_code(client, attempt)
    share = play(client, attempt, {"type": "declare", "letters": code})["result"]["share"]
    title, *grid = share.split("\n")
    assert "(hard:" in title and DAY.isoformat() in title
    for line in grid:
        assert not re.search(r"[A-Za-z0-9@]", line), line
    for entry in code:
        assert f"{entry['letter']}@" not in share and f"{entry['row']}{entry['column']}" not in share


def test_streaks_count_days_in_a_row(client, today):
    for offset in (0, 1, 2, 4):
        today["day"] = DAY + timedelta(days=offset)
        attempt = start(client)
        done = play(client, attempt, {"type": "declare", "letters": the_code(client, attempt)})
    assert done["streak"] == {"current": 1, "best": 3}


def test_practice_codes_are_unscored_and_unlimited(client, today):
    first, second = start(client, practice=True), start(client, practice=True)
    assert first["id"] != second["id"] and first["practice"] and first["day"] is None
    done = play(client, first, {"type": "give_up"})
    assert done["over"] and not done["solved"] and done["result"]["distribution"] is None
    assert len(done["result"]["code"]) == 5
    today_attempt = start(client)
    assert not today_attempt["over"]  # practice did not use up the day's attempt


def test_an_attempt_is_its_players_alone(client, today):
    attempt = start(client)
    other = TestClient(client.app)  # another player (the app is already started)
    assert other.post("/api/daily/alphacode", json={}).status_code == 401  # none without a session
    guest(other, "Bob")
    assert other.get(f"/api/daily/alphacode/{attempt['id']}").status_code == 404
    assert other.post(f"/api/daily/alphacode/{attempt['id']}", json={"action": {"type": "give_up"}}).status_code == 404


@pytest.mark.parametrize(
    "action",
    [
        {"type": "count", "row": "N", "column": "B"},  # a square, not a zone
        {"type": "count", "row": "O", "column": "D", "extra": 1},
        {"type": "declare", "letters": "abc"},
        {"type": "fly"},
        {"type": "give_up", "now": True},
    ],
)
def test_hostile_actions_are_refused_and_change_nothing(client, today, action):
    attempt = start(client)
    assert "detail" in play(client, attempt, action, status=400)
    assert client.get(f"/api/daily/alphacode/{attempt['id']}").json() == attempt


def test_a_question_asked_twice_is_refused(client, today):
    attempt = start(client)
    play(client, attempt, {"type": "count", "row": "O", "column": "D"})
    play(client, attempt, {"type": "count", "row": "O", "column": "D"}, status=400)


def two_codes_alike() -> tuple[int, int, list[dict], list[dict]]:
    """Two codes, questions both answer alike, and a code that is neither."""
    table = legal_codes()
    first, second = 0, len(table) - 1
    questions = [q for q in Solo(first).legal_actions() if Solo(first)._ask(dict(q)) == Solo(second)._ask(dict(q))][:6]
    return first, second, questions, table.code_json(len(table) // 2)


def test_nothing_about_the_code_reaches_the_player_before_the_end(tmp_path, monkeypatch, today):
    """Two servers whose codes of the day differ: every answer is byte-identical until the end."""
    first, second, questions, wrong = two_codes_alike()
    seen = []
    for index, code in enumerate((first, second)):
        monkeypatch.setattr(daily, "code_of_day", lambda secret, day, code=code: code)
        folder = tmp_path / str(index)
        folder.mkdir()
        with TestClient(create_app(fast_config(folder))) as client:
            guest(client)
            attempt = start(client)
            answers = [attempt]
            answers += [play(client, attempt, question) for question in questions]
            answers.append(play(client, attempt, {"type": "declare", "letters": wrong}))
            answers.append(client.get(f"/api/daily/alphacode/{attempt['id']}").json())
            ids = attempt["id"]
            seen.append(json.dumps(answers, sort_keys=True).replace(ids, "ID"))
    assert seen[0] == seen[1]

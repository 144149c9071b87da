"""A player's own data (codecrack/web/players/leaving.py): the export holds its games' records,
ratings and sessions and nothing of the others' hidden information; the deletion removes the player,
its sessions and what it said, and keeps every game replayable and the other players' records
intact. On SQLite and on PostgreSQL (whose foreign keys refuse a deletion that leaves a reference)."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from codecrack.core.registry import replay
from codecrack.web.app import create_app
from codecrack.web.players import leaving
from codecrack.web.players.accounts import ACCOUNT_FAILURES
from codecrack.web.players.leaving import DELETED
from codecrack.web.store import chat_lines, player_sessions, players, rating_changes, ratings, seat_tokens

from .conftest import fast_config
from .test_accounts import PASSWORD, account, sign_in
from .test_players import guest, rows
from .test_ratings import both_seats, rated_toy, seat_two, settle  # noqa: F401 (a fixture: the rated toy game)
from .wsclient import HUMAN, create, replay_frames


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request, tmp_path):
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else None
    with TestClient(create_app(fast_config(tmp_path, **({"db_url": url} if url else {})))) as test_client:
        yield test_client


@pytest.fixture
def browser(client):
    return TestClient(client.app)


def rated_game(client, browser) -> str:
    """Ann (``client``, seat 0) and Bob (``browser``) finish a rated game, Ann saying hello: its code."""
    account(client, "Ann")
    account(browser, "Bob")
    code, tokens = seat_two(client, browser)
    with both_seats(client, code, tokens) as seats:
        seats[0].ws.send_json({"type": "chat", "text": "hello Bob"})
        seats[1].until(lambda m: m["type"] == "chat" and m["lines"])
        winner = seats[0].view["turn"]
        seats[winner].act({"type": "add", "amount": 2})
        seats[0].until(lambda m: m["type"] == "rated")
    settle(client)
    return code


def test_the_export_holds_the_players_games_as_records_and_its_ratings(client, browser, monkeypatch):
    monkeypatch.setattr(leaving, "SEATS_PER_READ", 1)  # one seat a read: the games come in three reads
    code = rated_game(client, browser)
    running = create(client, "toy", [HUMAN, HUMAN], sit=0)["code"]  # unfinished: no record
    [ann] = rows(client, select(players.c.id).where(players.c.handle == "Ann"))
    assert len(list(leaving.export(client.app.state.hub.engine, ann["id"]))) == 2 + 2  # sent a game at a time
    answer = client.get("/api/me/export")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    data = answer.json()
    assert data["player"]["handle"] == "Ann" and len(data["sessions"]) == 1
    assert "id" not in data["sessions"][0] and "password_hash" not in data["player"]
    assert [(r["game"], r["games"]) for r in data["ratings"]] == [("toy", 1)]
    games = {game["code"]: game for game in data["games"]}
    assert set(games) == {code, running}
    finished = games[code]
    assert finished["rating"]["before"] == 1500 and [s["body"] for s in finished["said"]] == ["hello Bob"]
    assert replay(finished["record"]).result == finished["result"]  # the engine's record format
    assert games[running]["record"] is None and games[running]["result"] is None


def test_the_export_needs_a_session(client):
    assert client.get("/api/me/export").status_code == 401


def test_exports_are_limited_per_player_and_per_address(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, exports_per_hour=2, exports_per_address=3))) as ann:
        guest(ann, "Ann")
        assert [ann.get("/api/me/export").status_code for _ in range(2)] == [200, 200]
        refused = ann.get("/api/me/export")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "3600"
        assert refused.json()["detail"] == "at most 2 exports an hour"
        bob = TestClient(ann.app)  # another player at the same address
        guest(bob, "Bob")
        assert bob.get("/api/me/export").status_code == 200
        assert bob.get("/api/me/export").json()["detail"] == "at most 3 exports an hour from one address"


def test_an_account_is_deleted_with_its_password_and_the_games_stay(client, browser):
    code = rated_game(client, browser)
    before = replay_frames(browser.get, code)
    wrong = client.request("DELETE", "/api/me", json={"password": "not it"})
    assert wrong.status_code == 401 and client.get("/api/me").json()["player"]["handle"] == "Ann"
    deleted = client.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert deleted.status_code == 200 and deleted.json()["player"] is None
    assert client.get("/api/me").json()["player"] is None
    assert sign_in(TestClient(client.app), "Ann").status_code == 401
    assert rows(client, select(players.c.handle)) == [{"handle": "Bob"}]
    assert rows(client, select(ratings.c.game)) == [{"game": "toy"}]  # Bob's
    assert {row["player_id"] is None for row in rows(client, select(rating_changes.c.player_id))} == {True, False}
    assert len(rows(client, select(player_sessions.c.id))) == 1  # Bob's
    assert [r["body"] for r in rows(client, select(chat_lines.c.body))] == []
    names = rows(client, select(seat_tokens.c.name).order_by(seat_tokens.c.seat))
    assert names == [{"name": DELETED}, {"name": "Ann"}]  # Bob's guest name was Ann too: he keeps it
    # the game still replays, for Bob and anyone, its frames unchanged; Bob's profile keeps it
    assert replay_frames(browser.get, code) == before
    assert browser.get("/api/players/Bob").json()["played"] == 1
    assert client.get("/api/players/Ann").status_code == 404
    # the handle is free again
    assert account(TestClient(client.app), "Ann")["player"]["handle"] == "Ann"


def test_a_guest_is_deleted_without_a_password(client):
    guest(client, "Gus")
    create(client, "toy", [HUMAN, HUMAN], sit=0)
    assert client.request("DELETE", "/api/me", json={}).status_code == 200
    assert rows(client, select(players.c.id)) == []
    assert rows(client, select(seat_tokens.c.name, seat_tokens.c.player_id)) == [{"name": DELETED, "player_id": None}]


def test_password_guessing_through_deletion_is_throttled(client):
    account(client, "Ann")
    for _ in range(ACCOUNT_FAILURES):
        assert client.request("DELETE", "/api/me", json={"password": "guess"}).status_code == 401
    assert client.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 429
    assert rows(client, select(players.c.handle)) == [{"handle": "Ann"}]


def test_deletion_from_another_site_is_refused(client):
    account(client, "Ann")
    forged = client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers={"x-csrf-token": "forged"})
    assert forged.status_code == 403
    assert rows(client, select(players.c.handle)) == [{"handle": "Ann"}]

"""Players (codecrack/web/players): guests held by database sessions, seats linked to them, CSRF."""

import hashlib
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select, update

from codecrack.web.app import create_app
from codecrack.web.migrate import upgrade
from codecrack.web.players.csrf import same_origin
from codecrack.web.players.identity import COOKIE, Players, end_sessions
from codecrack.web.store import make_engine, now, player_sessions, players, seat_tokens, tables

from .conftest import fast_config
from .test_quick_match import SITE, sign_up
from .test_several_instances import run_two_instances
from .wsclient import HUMAN, RANDOM, bearer, create, seated

COINS = {"game": "toy", "seats": [HUMAN, HUMAN], "options": {"target": 99}}


def guest(client, name: str = "Ann") -> dict:
    """Make ``client`` a guest; its later unsafe requests carry the CSRF token and the Origin."""
    made = sign_up(client, name).json()
    client.headers.update({"origin": SITE, "x-csrf-token": made["csrf"]})
    return made


def rows(client, query):
    with client.app.state.hub.engine.connect() as db:
        return [dict(row) for row in db.execute(query).mappings()]


@pytest.fixture
def db_url(request, tmp_path):
    return f"sqlite:///{tmp_path}/web.db" if request.param == "sqlite" else request.getfixturevalue("postgres_url")


def test_a_first_visit_has_no_player_until_it_asks_for_a_guest(client):
    assert client.get("/api/me").json() == {"player": None, "csrf": None}
    made = guest(client)
    assert made["player"] == {"name": "Ann", "handle": None, "guest": True}
    assert client.get("/api/me").json() == made
    assert guest(client) == made  # asked again: the same player, no second one
    assert len(rows(client, select(players))) == 1


def test_a_guest_without_a_name_gets_one(client):
    assert guest(client, "")["player"]["name"].startswith("guest-")


def test_the_session_cookie_is_httponly_and_lax_and_only_its_hash_is_stored(client):
    answer = client.post("/api/me/guest", json={}, headers={"origin": SITE})
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie and "Path=/" in cookie
    secret = client.cookies[COOKIE]
    [stored] = rows(client, select(player_sessions))
    assert stored["id"] == hashlib.sha256(secret.encode()).hexdigest() != secret
    assert secret not in str(rows(client, select(players))) + str(stored)


def test_the_cookie_is_secure_behind_tls(tmp_path):
    with TestClient(create_app(fast_config(tmp_path)), base_url="https://testserver") as client:
        answer = client.post("/api/me/guest", json={}, headers={"origin": "https://testserver"})
        assert answer.status_code == 200 and "Secure" in answer.headers["set-cookie"]


def test_another_sites_page_cannot_make_a_guest(client):
    answer = client.post("/api/me/guest", json={}, headers={"origin": "https://evil.example"})
    assert answer.status_code == 403 and COOKIE not in client.cookies
    assert rows(client, select(players)) == []


def test_every_seat_taken_is_linked_and_any_tab_finds_it_again(client):
    guest(client)
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"target": 99})
    code = made["code"]
    joined = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()
    linked = rows(client, select(seat_tokens.c.seat, seat_tokens.c.player_id, seat_tokens.c.name))
    assert {(row["seat"], row["name"]) for row in linked} == {(0, "Ann"), (1, "Ann")}  # the player's name by default
    assert len({row["player_id"] for row in linked}) == 1 and linked[0]["player_id"] is not None
    # a new tab knows no token: the session finds the seat, and its token opens the socket as that seat
    mine = client.get(f"/api/tables/{code}/mine").json()
    assert mine == {"code": code, "game": "toy", "seat": 0, "token": made["token"]}
    assert client.get("/api/me/seats").json() == [
        {"code": code, "game": "toy", "seat": 0},
        {"code": code, "game": "toy", "seat": 1},
    ]
    with seated(client, code, mine["token"]) as me:
        assert me.log[0]["seat"] == 0
    # the table tokens keep working without any cookie (the API, the terminal)
    client.cookies.clear()
    with seated(client, code, joined["token"]) as bob:
        assert bob.log[0]["seat"] == 1
    assert client.get(f"/api/tables/{code}/mine").status_code == 401


def test_another_player_finds_no_seat_of_mine(client):
    guest(client)
    code = create(client, "toy", [HUMAN, HUMAN], sit=0)["code"]
    client.cookies.clear()
    guest(client, "Bob")
    assert client.get(f"/api/tables/{code}/mine").status_code == 404
    assert client.get("/api/me/seats").json() == []


def test_a_seat_taken_without_a_session_belongs_to_no_player(client):
    made = create(client, "toy", [HUMAN, RANDOM], sit=0)
    assert rows(client, select(seat_tokens.c.player_id)) == [{"player_id": None}]
    guest(client)
    assert client.get(f"/api/tables/{made['code']}/mine").status_code == 404


def test_a_rematch_keeps_the_seats_linked(client):
    guest(client)
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"target": 2, "first": 0})
    code = made["code"]
    with seated(client, code, made["token"]) as me:
        me.act({"type": "add", "amount": 2})
        me.state_at(1)
    fresh = client.post(f"/api/tables/{code}/rematch", headers=bearer(made["token"])).json()["code"]
    assert client.get(f"/api/tables/{fresh}/mine").json()["seat"] == 0


@pytest.mark.parametrize(
    "headers",
    [
        {},  # neither token nor origin
        {"origin": SITE},  # no token
        {"origin": SITE, "x-csrf-token": "0" * 64},  # a wrong token
        {"origin": "https://evil.example", "token": True},  # the right token from another site
        {"origin": "null", "token": True},
        {"token": True},  # the right token, no origin at all
        {"origin": "http://testserver.evil.example", "token": True},
    ],
)
def test_a_cookie_authenticated_change_needs_this_sites_origin_and_the_token(client, headers):
    token = guest(client)["csrf"]
    client.headers.pop("origin")
    client.headers.pop("x-csrf-token")
    if headers.pop("token", False):
        headers["x-csrf-token"] = token
    before = rows(client, select(tables))
    for method, path, body in [
        ("POST", "/api/tables", {"game": "toy", "seats": [HUMAN, HUMAN], "sit": 0}),
        ("PATCH", "/api/me", {"name": "Mallory"}),
    ]:
        answer = client.request(method, path, json=body, headers=headers)
        assert answer.status_code == 403, answer.text
    assert rows(client, select(tables)) == before
    assert client.get("/api/me").json()["player"]["name"] == "Ann"


def test_with_this_sites_origin_and_the_token_the_change_is_made(client):
    guest(client)
    assert client.patch("/api/me", json={"name": "Ann B"}).json()["player"]["name"] == "Ann B"
    assert client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN], "sit": 0}).status_code == 200
    assert client.patch("/api/me", json={"name": " "}).status_code == 400
    assert client.patch("/api/me", json={"name": "x" * 41}).status_code == 400


def test_requests_without_the_cookie_need_no_token(client):
    """The API's and the terminal's clients hold seats by their tokens alone, as before."""
    made = create(client, "toy", [HUMAN, HUMAN], sit=0)
    assert client.post(f"/api/tables/{made['code']}/join", json={"seat": 1}).status_code == 200


def test_a_removed_or_expired_session_is_no_player(client):
    guest(client)
    engine = client.app.state.hub.engine
    with engine.begin() as db:
        db.execute(update(player_sessions).values(expires_at=now() - timedelta(seconds=1)))
    assert client.get("/api/me").json()["player"] is None
    with engine.begin() as db:
        db.execute(update(player_sessions).values(expires_at=now() + timedelta(days=1)))
    assert client.get("/api/me").json()["player"] is not None
    with engine.begin() as db:
        db.execute(player_sessions.delete())
    assert client.get("/api/me").json()["player"] is None
    assert client.get("/api/me/seats").status_code == 401


def test_a_session_in_use_slides_its_expiry(client):
    guest(client)
    engine = client.app.state.hub.engine
    soon = now() + timedelta(hours=1)
    with engine.begin() as db:
        db.execute(update(player_sessions).values(seen_at=now() - timedelta(days=2), expires_at=soon))
    assert client.get("/api/me").json()["player"] is not None
    [stored] = rows(client, select(player_sessions))
    assert stored["expires_at"].replace(tzinfo=None) > soon.replace(tzinfo=None) + timedelta(days=80)


@pytest.mark.parametrize(
    "origin, expected",
    [
        (None, True),  # not a browser: nothing to forge
        ("http://testserver", True),
        ("http://testserver:80", True),
        ("https://testserver", False),
        ("http://evil.example", False),
        ("null", False),
    ],
)
def test_a_socket_is_the_players_only_from_this_sites_pages(origin, expected):
    headers = [(b"host", b"testserver")] + ([(b"origin", origin.encode())] if origin else [])
    assert same_origin({"type": "websocket", "scheme": "ws", "headers": headers}, required=False) is expected


@pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)
def test_the_players_migration_keeps_the_stored_seats(db_url):
    engine = make_engine(db_url)
    upgrade(engine, "0005")
    with engine.begin() as db:
        db.execute(
            insert(tables).values(
                code="ABCDE", game="toy", players=2, seed=1, options={}, seats=[], created_at=now(), finished=False
            )
        )
        db.execute(insert(seat_tokens).values(token="t", table_code="ABCDE", seat=0, name="Ann"))
    upgrade(engine)
    with engine.connect() as db:
        assert db.execute(select(seat_tokens.c.token, seat_tokens.c.player_id)).all() == [("t", None)]
    engine.dispose()


def test_a_session_made_on_one_instance_is_served_and_ended_by_another(tmp_path, postgres_url):
    """Sessions live in the database (issue 27 §1): a guest's session made by instance A is the
    same player on instance B, and signing out everywhere on B ends it on A at once (no instance
    keeps a copy)."""

    async def scenario(a, b):
        made_on_a, secret = await Players(a).new_guest("Ann")
        on_b = Players(b)
        assert await on_b.by_secret(secret) == made_on_a
        await b.writer.write(end_sessions, made_on_a.id)
        assert await Players(a).by_secret(secret) is None and await on_b.by_secret(secret) is None

    run_two_instances(tmp_path, postgres_url, scenario)

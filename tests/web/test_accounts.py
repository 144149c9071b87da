"""Accounts (codecrack/web/players/accounts.py): handles, argon2id passwords, sign-in and its
protections. Each protection has a test here that fails without it."""

import logging

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from codecrack.web.app import create_app
from codecrack.web.players import accounts
from codecrack.web.players.accounts import ACCOUNT_FAILURES, ADDRESS_FAILURES, checked_handle, handle_key
from codecrack.web.players.identity import COOKIE
from codecrack.web.store import player_sessions, players

from .conftest import fast_config
from .test_players import SITE, guest, rows
from .wsclient import HUMAN, create

PASSWORD = "correct horse battery"


def account(client, handle: str = "Ann", password: str = PASSWORD) -> dict:
    guest(client)
    answer = client.post("/api/me/account", json={"handle": handle, "password": password})
    assert answer.status_code == 200, answer.text
    client.headers["x-csrf-token"] = answer.json()["csrf"]
    return answer.json()


def sign_in(client, handle: str, password: str = PASSWORD, **headers):
    answer = client.post("/api/session", json={"handle": handle, "password": password}, headers=headers)
    if answer.status_code == 200:
        client.headers.update({"origin": SITE, "x-csrf-token": answer.json()["csrf"]})
    return answer


@pytest.fixture
def browser(client):
    """A second browser on the same server: its own cookies."""
    return TestClient(client.app)  # the app is already started (by ``client``)


def test_a_guest_becomes_an_account_and_keeps_its_seats(client, browser):
    guest(client)
    code = create(client, "toy", [HUMAN, HUMAN], sit=0)["code"]
    made = client.post("/api/me/account", json={"handle": "Ann", "password": PASSWORD})
    assert made.json()["player"] == {"name": "Ann", "handle": "Ann", "guest": False}
    stored = rows(client, select(players.c.password_hash))[0]["password_hash"]
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    # another browser signs in and holds the same seat
    assert sign_in(browser, "ann").status_code == 200
    assert browser.get(f"/api/tables/{code}/mine").json()["seat"] == 0


def test_a_handle_is_normalised_and_unique(client, browser):
    account(client, "Ａｎｎ")  # full-width letters: NFKC makes them "Ann"
    assert client.get("/api/me").json()["player"]["handle"] == "Ann"
    guest(browser, "Bob")
    for taken in ["ann", "ANN", "Ａｎｎ"]:
        answer = browser.post("/api/me/account", json={"handle": taken, "password": PASSWORD})
        assert answer.status_code == 400 and "taken" in answer.json()["detail"]
    assert sign_in(browser, "aNN").status_code == 200


@pytest.mark.parametrize(
    "handle, why",
    [
        ("ab", "3 to 20"),
        ("a" * 21, "3 to 20"),
        ("ann smith", "only letters"),
        ("<script>", "only letters"),
        ("ann\u200b", "only letters"),  # a zero-width space
        ("Admin", "reserved"),
        ("ＡＤＭＩＮ", "reserved"),
        ("guest-0042", "reserved"),
        ("deleted_player", "reserved"),
    ],
)
def test_a_bad_handle_is_refused_and_nothing_changes(client, handle, why):
    guest(client)
    answer = client.post("/api/me/account", json={"handle": handle, "password": PASSWORD})
    assert answer.status_code == 400 and why in answer.json()["detail"], answer.text
    assert rows(client, select(players.c.handle)) == [{"handle": None}]


def test_a_thai_handle_is_an_account_too():
    assert checked_handle("แอน_1") == "แอน_1" and handle_key("ANN") == handle_key("ann")


@pytest.mark.parametrize("password", ["short", "x" * 257])
def test_a_password_is_8_to_256_characters(client, password):
    guest(client)
    assert client.post("/api/me/account", json={"handle": "Ann", "password": password}).status_code == 400


def test_an_account_is_made_once(client):
    account(client)
    again = client.post("/api/me/account", json={"handle": "Ann2", "password": PASSWORD})
    assert again.status_code == 400


def test_a_wrong_password_and_an_unknown_handle_get_the_same_answer_after_the_same_work(client, browser, monkeypatch):
    account(client)
    checked = []

    class Counting:
        def verify(self, hashed, password):
            checked.append(hashed)
            return real.verify(hashed, password)

    real = accounts.hasher
    monkeypatch.setattr(accounts, "hasher", Counting())
    wrong = sign_in(browser, "Ann", "not the password")
    unknown = sign_in(browser, "Nobody", "not the password")
    assert (wrong.status_code, wrong.json()) == (unknown.status_code, unknown.json()) == (401, wrong.json())
    assert len(checked) == 2 and all(hashed.startswith("$argon2id$") for hashed in checked)
    assert COOKIE not in browser.cookies


def test_an_unknown_handle_is_checked_against_a_hash_of_the_real_parameters(real_passwords):
    """Else an unknown handle would be answered after less (or more) work than a wrong password
    (the hash, made at import before, is a constant: tests/web/conftest.py hashes quicker)."""
    hasher, unknown = real_passwords
    assert hasher.type.name == "ID" and not hasher.check_needs_rehash(unknown)
    assert hasher.verify(unknown, "an unknown handle is checked against this")  # a whole hash, not just its header


def test_sign_ins_are_throttled_per_account(client, browser):
    account(client)
    for _ in range(ACCOUNT_FAILURES):
        assert sign_in(browser, "Ann", "wrong password").status_code == 401
    assert sign_in(browser, "ann", PASSWORD).status_code == 429  # even the right password, until the window ends
    assert sign_in(browser, "Bob", "wrong password").status_code == 401  # another account is not locked


def test_sign_ins_are_throttled_per_address(client, browser):
    account(client)
    for n in range(ADDRESS_FAILURES):
        assert sign_in(browser, f"someone{n}", "wrong password").status_code == 401
    assert sign_in(browser, "Ann", PASSWORD).status_code == 429


def test_a_good_sign_in_clears_the_accounts_failures(client, browser):
    account(client)
    for _ in range(ACCOUNT_FAILURES - 1):
        sign_in(browser, "Ann", "wrong password")
    assert sign_in(browser, "Ann").status_code == 200
    browser.cookies.clear()
    assert sign_in(browser, "Ann", "wrong password").status_code == 401
    assert sign_in(browser, "Ann").status_code == 200


def test_signing_in_gives_a_new_session_id(client, browser):
    """No fixation: a session id known before the sign-in (say, planted by an attacker) is not the
    signed-in one, and no longer works."""
    account(client)
    guest(browser, "Planted")
    planted = browser.cookies[COOKIE]
    assert sign_in(browser, "Ann").status_code == 200
    assert browser.cookies[COOKIE] != planted
    assert TestClient(client.app, cookies={COOKIE: planted}).get("/api/me").json()["player"] is None


def test_making_an_account_gives_a_new_session_id(client):
    guest(client)
    before = client.cookies[COOKIE]
    account(client)
    assert client.cookies[COOKIE] != before
    assert TestClient(client.app, cookies={COOKIE: before}).get("/api/me").json()["player"] is None


def test_sign_out_here_and_everywhere(client, browser):
    account(client)
    assert sign_in(browser, "Ann").status_code == 200
    third = TestClient(client.app)
    assert sign_in(third, "Ann").status_code == 200
    assert client.delete("/api/session").status_code == 200  # here: the others stay
    assert client.get("/api/me").json()["player"] is None
    assert browser.get("/api/me").json()["player"]["handle"] == "Ann"
    assert browser.delete("/api/sessions").status_code == 200  # everywhere
    assert third.get("/api/me").json()["player"] is None
    assert browser.get("/api/me").json()["player"] is None
    assert rows(client, select(player_sessions)) == []


def test_signing_out_needs_the_csrf_token(client):
    account(client)
    client.headers.pop("x-csrf-token")
    assert client.delete("/api/sessions").status_code == 403
    assert client.get("/api/me").json()["player"]["handle"] == "Ann"


def test_another_sites_page_cannot_sign_a_browser_in(client, browser):
    account(client)
    answer = browser.post(
        "/api/session", json={"handle": "Ann", "password": PASSWORD}, headers={"origin": "https://evil.example"}
    )
    assert answer.status_code == 403 and COOKIE not in browser.cookies


def test_no_password_session_or_token_reaches_the_logs(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    with TestClient(create_app(fast_config(tmp_path))) as client:
        other = TestClient(client.app)
        made = account(client)
        table = create(client, "toy", [HUMAN, HUMAN], sit=0)
        sign_in(other, "Ann", "a wrong password")
        sign_in(other, "Ann")
        client.delete("/api/sessions")
        secrets = [PASSWORD, "a wrong password", made["csrf"], table["token"], other.cookies[COOKIE]]
    logged = "\n".join(f"{record.getMessage()} {record.args}" for record in caplog.records)
    assert logged and not [secret for secret in secrets if secret in logged]

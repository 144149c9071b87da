"""Passkeys (codecrack/web/players/passkeys.py): added and removed by an account, used to sign in;
their challenges are kept in the database, used once and short-lived; CSRF and throttling as for
passwords. The answers come from a software authenticator (tests/web/authenticator.py) and are
checked by the real ``webauthn`` library; tests/web/test_e2e_passkeys.py uses Chromium's."""

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from codecrack.web.app import create_app
from codecrack.web.players.accounts import ADDRESS_FAILURES
from codecrack.web.players.passkey_routes import CEREMONIES_PER_MINUTE
from codecrack.web.store import now, passkey_challenges, passkeys

from .authenticator import Authenticator
from .conftest import fast_config
from .test_accounts import account, browser  # noqa: F401  (the fixture)
from .test_players import SITE, db_url, guest, rows  # noqa: F401  (the fixture)
from .wsclient import HUMAN, create


def add_passkey(client, device: Authenticator) -> list[dict]:
    options = client.post("/api/me/passkeys/options").json()
    answer = client.post(
        "/api/me/passkeys", json={"challenge": options["challenge"], "credential": device.create(options)}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def passkey_sign_in(client, device: Authenticator, **tamper):
    options = client.post("/api/session/passkey/options", headers={"origin": SITE}).json()
    credential = device.get(options, **tamper)
    answer = client.post(
        "/api/session/passkey",
        json={"challenge": options["challenge"], "credential": credential},
        headers={"origin": SITE},
    )
    if answer.status_code == 200:
        client.headers.update({"origin": SITE, "x-csrf-token": answer.json()["csrf"]})
    return answer


def test_a_passkey_signs_in_on_another_browser_back_into_the_accounts_seats(client, browser):
    account(client)
    code = create(client, "toy", [HUMAN, HUMAN], sit=1)["code"]
    device = Authenticator()
    [kept] = add_passkey(client, device)
    assert kept["used_at"] is None
    signed = passkey_sign_in(browser, device)
    assert signed.status_code == 200, signed.text
    assert signed.json()["player"] == {"name": "Ann", "handle": "Ann", "guest": False}
    assert browser.get(f"/api/tables/{code}/mine").json()["seat"] == 1
    assert [seat["code"] for seat in browser.get("/api/me/seats").json()] == [code]
    [used] = browser.get("/api/me/passkeys").json()
    assert used["used_at"] is not None
    assert client.get("/api/me/export").json()["passkeys"] == [used]


def test_a_removed_passkey_no_longer_signs_in(client, browser):
    account(client)
    device = Authenticator()
    [kept] = add_passkey(client, device)
    assert client.delete(f"/api/me/passkeys/{kept['id']}").json() == []
    assert client.delete(f"/api/me/passkeys/{kept['id']}").status_code == 404
    assert passkey_sign_in(browser, device).status_code == 401


def test_another_accounts_passkey_cannot_be_removed(client, browser):
    account(client)
    [kept] = add_passkey(client, Authenticator())
    account(browser, "Bob")
    assert browser.delete(f"/api/me/passkeys/{kept['id']}").status_code == 404
    assert len(client.get("/api/me/passkeys").json()) == 1


def test_a_guest_has_no_passkeys(client):
    guest(client)
    for answer in (client.get("/api/me/passkeys"), client.post("/api/me/passkeys/options")):
        assert answer.status_code == 400
        assert "accounts" in answer.json()["detail"]


def test_a_sign_in_answer_is_good_once(client, browser):
    account(client)
    device = Authenticator()
    add_passkey(client, device)
    options = browser.post("/api/session/passkey/options", headers={"origin": SITE}).json()
    body = {"challenge": options["challenge"], "credential": device.get(options)}
    assert browser.post("/api/session/passkey", json=body, headers={"origin": SITE}).status_code == 200
    replayed = TestClient(client.app).post("/api/session/passkey", json=body, headers={"origin": SITE})
    assert replayed.status_code == 401
    assert rows(client, select(passkey_challenges)) == []


def test_an_expired_challenge_is_refused(client, browser):
    account(client)
    device = Authenticator()
    add_passkey(client, device)
    options = browser.post("/api/session/passkey/options", headers={"origin": SITE}).json()
    with client.app.state.hub.engine.begin() as db:
        db.execute(update(passkey_challenges).values(expires_at=now() - timedelta(seconds=1)))
    body = {"challenge": options["challenge"], "credential": device.get(options)}
    assert browser.post("/api/session/passkey", json=body, headers={"origin": SITE}).status_code == 401
    # adding one too
    options = client.post("/api/me/passkeys/options").json()
    with client.app.state.hub.engine.begin() as db:
        db.execute(update(passkey_challenges).values(expires_at=now() - timedelta(seconds=1)))
    body = {"challenge": options["challenge"], "credential": Authenticator().create(options)}
    assert client.post("/api/me/passkeys", json=body).status_code == 400
    assert len(client.get("/api/me/passkeys").json()) == 1


def test_a_challenge_serves_only_its_own_ceremony(client, browser):
    account(client)
    account(browser, "Bob")
    options = client.post("/api/me/passkeys/options").json()  # Ann's
    body = {"challenge": options["challenge"], "credential": Authenticator().create(options)}
    assert browser.post("/api/me/passkeys", json=body).status_code == 400  # not Bob's
    device = Authenticator()
    add_passkey(client, device)
    options = client.post("/api/me/passkeys/options").json()  # to add one, not to sign in
    body = {"challenge": options["challenge"], "credential": device.get({**options, "rpId": "testserver"})}
    assert TestClient(client.app).post("/api/session/passkey", json=body, headers={"origin": SITE}).status_code == 401


def test_an_answer_made_for_another_site_is_refused(client, browser):
    account(client)
    device = Authenticator()
    options = client.post("/api/me/passkeys/options").json()
    body = {"challenge": options["challenge"], "credential": device.create(options, origin="http://evil.example")}
    assert client.post("/api/me/passkeys", json=body).status_code == 400
    add_passkey(client, device)
    assert passkey_sign_in(browser, device, origin="http://evil.example").status_code == 401


def test_passkey_calls_need_the_csrf_token_and_this_sites_origin(client, browser):
    account(client)
    token = client.headers.pop("x-csrf-token")
    assert client.post("/api/me/passkeys/options").status_code == 403
    client.headers["x-csrf-token"] = token
    device = Authenticator()
    [kept] = add_passkey(client, device)
    del client.headers["x-csrf-token"]
    assert client.delete(f"/api/me/passkeys/{kept['id']}").status_code == 403
    assert browser.post("/api/session/passkey/options", headers={"origin": "http://evil.example"}).status_code == 403
    options = browser.post("/api/session/passkey/options", headers={"origin": SITE}).json()
    body = {"challenge": options["challenge"], "credential": device.get(options)}
    assert browser.post("/api/session/passkey", json=body, headers={"origin": "http://evil.example"}).status_code == 403
    assert "codecrack_session" not in browser.cookies


def test_failed_passkey_sign_ins_are_throttled_per_address(client, browser):
    account(client)
    device = Authenticator()
    add_passkey(client, device)
    stranger = Authenticator()  # a passkey this site never kept, answering a challenge it never gave
    made_up = {"challenge": "made-up", "credential": stranger.get({"challenge": "made-up", "rpId": "testserver"})}
    for _ in range(ADDRESS_FAILURES):
        assert browser.post("/api/session/passkey", json=made_up, headers={"origin": SITE}).status_code == 401
    refused = passkey_sign_in(browser, device)
    assert refused.status_code == 429
    assert "codecrack_session" not in browser.cookies


def test_asking_for_ceremonies_is_limited_per_address(client):
    for _ in range(CEREMONIES_PER_MINUTE):
        assert client.post("/api/session/passkey/options", headers={"origin": SITE}).status_code == 200
    assert client.post("/api/session/passkey/options", headers={"origin": SITE}).status_code == 429


def test_a_deleted_account_takes_its_passkeys_along(client, browser):
    account(client)
    device = Authenticator()
    add_passkey(client, device)
    client.post("/api/me/passkeys/options")  # a ceremony under way
    assert client.request("DELETE", "/api/me", json={"password": "correct horse battery"}).status_code == 200
    assert rows(client, select(passkeys)) == rows(client, select(passkey_challenges)) == []
    assert passkey_sign_in(browser, device).status_code == 401


@pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)
def test_a_ceremony_begun_on_one_instance_finishes_on_the_next(db_url, tmp_path):
    """The challenges are in the database: an instance that did not give them (here: the next
    one on the same database, the first stopped) finishes the ceremonies."""
    config = fast_config(tmp_path, db_url=db_url)
    device = Authenticator()
    with TestClient(create_app(config)) as one:
        account(one)
        adding = one.post("/api/me/passkeys/options").json()
        signing_in = TestClient(one.app).post("/api/session/passkey/options", headers={"origin": SITE}).json()
    with TestClient(create_app(config)) as other:
        other.cookies, other.headers = one.cookies, one.headers
        body = {"challenge": adding["challenge"], "credential": device.create(adding)}
        assert other.post("/api/me/passkeys", json=body).status_code == 200
        body = {"challenge": signing_in["challenge"], "credential": device.get(signing_in)}
        assert (
            TestClient(other.app).post("/api/session/passkey", json=body, headers={"origin": SITE}).status_code == 200
        )

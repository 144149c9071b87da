"""Passkeys in Chromium, made and used by its virtual authenticator (the DevTools protocol's WebAuthn
domain): an account adds one on its account page; another browser holding that passkey signs in
with it, without a handle, and is back in the running game's seat; the account removes it."""

from __future__ import annotations

import pytest

from .browser import site_fixture
from .test_e2e import new_table

pytestmark = pytest.mark.e2e
AUTHENTICATOR = {  # a platform authenticator that keeps discoverable credentials and verifies its user
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


site = site_fixture(host="localhost", ai_pace=0.0, disconnect_timeout=30)  # a passkey belongs to a domain, not an IP


def authenticator(page) -> tuple[object, str]:
    """A virtual authenticator in ``page``'s browser tab: the DevTools session and its id."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    found = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return devtools, found["authenticatorId"]


def test_a_passkey_made_on_one_browser_signs_in_on_another_back_into_the_running_seat(site):
    url, browser = site
    page = new_table(site, "coda", "easy")
    code = page.inner_text("#table-code")
    page.wait_for_selector(".table-head >> text=You: Tester")
    devtools, first = authenticator(page)
    page.click("#account-link")
    page.fill("#account-create input[name=handle]", "Tester_pk")
    page.fill("#account-create input[name=password]", "correct horse battery")
    page.click("#account-create button[type=submit]")
    page.wait_for_selector("#account-link >> text=Tester_pk")
    page.click("#account-link")
    page.wait_for_selector("#passkeys >> text=No passkey yet.")
    page.click("#add-passkey")
    page.wait_for_selector("#passkeys li[data-id]")
    [made] = devtools.send("WebAuthn.getCredentials", {"authenticatorId": first})["credentials"]
    assert made["isResidentCredential"] and made["rpId"] == "localhost"
    # another browser whose authenticator holds that passkey (a synced passkey, or a security key)
    other = browser.new_context().new_page()
    other.goto(f"{url}/#/account")
    their, second = authenticator(other)
    their.send("WebAuthn.addCredential", {"authenticatorId": second, "credential": made})
    other.click("#passkey-sign-in")
    other.wait_for_selector("#account-link >> text=Tester_pk")
    other.click(f"#my-tables a >> text={code}")
    other.wait_for_selector(".table-head >> text=You: Tester")
    assert other.evaluate("window.codecrack.seat") == 0
    other.click("#account-link")
    other.wait_for_selector("#passkeys li[data-id] >> text=last used")
    # removed on the first browser: the other one cannot sign in with it any more
    page.reload()
    page.wait_for_selector("#passkeys li[data-id]")
    page.click("#passkeys li[data-id] button")
    page.wait_for_selector("#passkeys >> text=No passkey yet.")
    other.click("#sign-out")
    other.wait_for_selector("#account-link >> text=Sign in")
    other.click("#account-link")
    other.click("#passkey-sign-in")
    other.wait_for_selector("#account-error >> text=this passkey could not sign you in")
    for context in (page.context, other.context):
        context.close()

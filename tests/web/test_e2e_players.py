"""A guest in the browser: its session cookie (out of the page's reach) brings any tab back to its seats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_e2e import new_table, site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e


def test_a_guest_finds_its_running_seat_again_from_a_tab_that_lost_the_token(site):
    url, browser = site
    page = new_table(site, "coda", "easy")
    code = page.inner_text("#table-code")
    page.wait_for_selector(".table-head >> text=You: Tester")
    assert "codecrack_session" not in page.evaluate("document.cookie")  # HttpOnly
    # the same browser session without the page's storage: only the cookie knows the seat
    cookies = page.context.cookies()
    assert [c["httpOnly"] and c["sameSite"] for c in cookies if c["name"] == "codecrack_session"] == ["Lax"]
    tab = browser.new_context()
    tab.add_cookies(cookies)
    again = tab.new_page()
    again.goto(url)
    again.wait_for_selector(f"#my-tables >> text={code}")
    again.click(f"#my-tables a >> text={code}")
    again.wait_for_selector(".table-head >> text=You: Tester")
    assert again.evaluate("window.codecrack.seat") == 0
    # another browser is another guest: a spectator at that table
    other = browser.new_context().new_page()
    other.goto(f"{url}/t/{code}")
    other.wait_for_selector(".table-head >> text=Spectating")
    for context in (tab, other.context, page.context):
        context.close()


def test_a_guest_becomes_an_account_and_signs_in_from_another_browser_back_into_its_running_seat(site):
    url, browser = site
    page = new_table(site, "coda", "easy")
    code = page.inner_text("#table-code")
    page.wait_for_selector(".table-head >> text=You: Tester")
    page.click("#account-link")
    page.fill("#account-create input[name=handle]", "Tester_e2e")
    page.fill("#account-create input[name=password]", "correct horse battery")
    page.click("#account-create button[type=submit]")
    page.wait_for_selector("#account-link >> text=Tester_e2e")
    # another browser: a guest first, then signed in; the running game's seat is its own again
    other = browser.new_context().new_page()
    other.goto(f"{url}/#/account")
    other.fill("#sign-in input[name=handle]", "tester_E2E")
    other.fill("#sign-in input[name=password]", "a wrong password")
    other.click("#sign-in button[type=submit]")
    other.wait_for_selector("#account-error >> text=wrong handle or password")
    other.fill("#sign-in input[name=password]", "correct horse battery")
    other.click("#sign-in button[type=submit]")
    other.wait_for_selector("#account-link >> text=Tester_e2e")
    other.click(f"#my-tables a >> text={code}")
    other.wait_for_selector(".table-head >> text=You: Tester")
    assert other.evaluate("window.codecrack.seat") == 0
    # signing out everywhere ends the first browser's session too
    other.click("#account-link")
    other.click("#sign-out-all")
    other.wait_for_selector("#account-link >> text=Sign in")
    page.goto(url)
    page.wait_for_selector("#account-link >> text=Sign in")
    for context in (page.context, other.context):
        context.close()


def test_a_players_name_is_shown_as_text_never_as_markup(site):
    url, browser = site
    page = browser.new_page()
    page.goto(url)
    page.fill("#create-form input[name=name]", "<img src=x id=pwned>")
    page.click("#create-go")
    page.wait_for_selector(".board")
    assert "<img src=x id=pwned>" in page.inner_text(".table-head")
    page.goto(url)
    page.wait_for_selector("#tables >> text=<img src=x id=pwned>")
    assert page.locator("#pwned").count() == 0
    page.context.close()


def test_an_export_past_its_limit_shows_the_refusal_and_saves_no_file(site):
    """The export link's download is the player's data or, past the hourly limit, the refusal on the
    page: never the 429's JSON saved as the file."""
    url, browser = site
    page = browser.new_context(accept_downloads=True).new_page()
    downloads = []
    page.on("download", lambda download: downloads.append(download))
    page.goto(f"{url}/#/account")
    for _ in range(4):  # exports_per_hour
        with page.expect_download() as saved:
            page.click("#export")
        assert json.loads(Path(saved.value.path()).read_text())["format"] == "codecrack-player-export-1"
    page.click("#export")
    page.wait_for_selector("#export-error >> text=at most 4 exports an hour")
    assert len(downloads) == 4
    page.context.close()

"""A guest in the browser: its session cookie (out of the page's reach) brings any tab back to its seats."""

from __future__ import annotations

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

"""The account page's Notifications card: a player opts in to e-mails (with consent), is asked to
confirm the address, and stops them."""

from __future__ import annotations

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e


def test_a_player_opts_in_to_e_mails_on_the_account_page_and_stops_them(site):
    url, browser = site
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#game-cards")
    page.goto(f"{url}/#/account")
    page.wait_for_selector("#notify-status >> text=No e-mails are sent.")
    page.fill("#notify-email input[name=address]", "e2e@example.org")
    page.check("#notify-email input[name=consent]")
    page.click("#notify-email button[type=submit]")
    page.wait_for_selector("#notify-status >> text=Confirm the address: open the link we sent to e2e@example.org.")
    page.reload()
    page.wait_for_selector("#notify-status >> text=Confirm the address: open the link we sent to e2e@example.org.")
    page.click("#notify-stop")
    page.wait_for_selector("#notify-status >> text=No e-mails are sent.")
    context.close()

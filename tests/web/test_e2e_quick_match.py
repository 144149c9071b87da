"""Quick match in the browser (issue 28 §2): two players in separate browser contexts click Quick
match and land at the same table; a lone player is offered the AI of about their strength after
the wait and takes it."""

from __future__ import annotations

import pytest

from .browser import site_fixture

pytestmark = pytest.mark.e2e


site = site_fixture(ai_pace=0.0, disconnect_timeout=30, match_wait=1.0)


def home(site):
    """The home page in a browser context of its own (a guest of its own)."""
    url, browser = site
    page = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB").new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector(".game-card")
    return page


def test_two_players_click_quick_match_and_land_at_the_same_table(site):
    ann, bob = home(site), home(site)
    card = ".game-card[data-game=coda]"
    ann.click(f"{card} .quick-match")
    ann.wait_for_selector(f"{card} .match-panel [role=status]:has-text('2-player')")
    bob.click(f"{card} .quick-match")
    for page in (ann, bob):
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".board .coda")
    assert ann.url == bob.url
    assert ann.inner_text(".seat-list") == bob.inner_text(".seat-list")
    assert not ann.errors and not bob.errors
    for page in (ann, bob):
        page.context.close()


def test_a_lone_player_is_offered_the_ai_and_a_cancelled_wait_seats_nobody(site):
    ann = home(site)
    card = ".game-card[data-game=alphacode]"
    ann.select_option("select[name=tier-alphacode]", "hard")
    ann.click(f"{card} .quick-match")
    # offered once the stated wait is over: the tier rated nearest a newcomer (easy), not the card's
    ann.click(f"{card} .match-ai[data-tier=easy]")
    ann.wait_for_selector(".board .alphacode")
    assert "easy" in ann.inner_text(".seat-list").lower()
    ann.goto(site[0])
    ann.wait_for_selector(".game-card")
    ann.click(f"{card} .quick-match")
    ann.wait_for_selector(f"{card} .match-panel [role=status]:has-text('2-player')")
    ann.click(f"{card} .match-cancel")
    ann.wait_for_selector(f"{card} .match-panel", state="hidden")  # hidden once the server let Ann go
    bob = home(site)
    bob.click(f"{card} .quick-match")
    bob.wait_for_selector(f"{card} .match-ai")  # nobody to match: Ann left
    assert "/t/" not in bob.url
    assert not ann.errors and not bob.errors
    for page in (ann, bob):
        page.context.close()

"""The home page in the browser: a newcomer plays the AI in one click, Learn comes first for a
game never played, the last choices are remembered, and a friend invited through the panel takes
the seat with one click (the panel then closes by itself), while a stranger who knows only the
table's code (the lobby lists it), or a link the host has since renewed, cannot."""

from __future__ import annotations

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e


def fresh_page(site):
    """A page in a browser context of its own: a newcomer, nothing kept."""
    url, browser = site
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector(".game-card")
    return page


def test_a_newcomer_plays_the_ai_in_one_click(site):  # noqa: F811
    page = fresh_page(site)
    card = ".game-card[data-game=coda]"
    assert page.get_attribute(card, "data-newcomer") == "true"
    assert page.query_selector(f"{card} .learn-first button.learn")  # Learn offered first
    page.click(f"{card} .play-ai")
    page.wait_for_selector(".board .coda")
    seats = page.inner_text(".seat-list")
    assert "easy" in seats.lower()  # the other seat is the AI, the sensible default tier
    page.goto(site[0])
    page.wait_for_selector(".game-card")
    assert page.get_attribute(card, "data-newcomer") == "false"  # played now: no Learn first
    assert page.query_selector(f"{card} .play-ai.primary")
    page.wait_for_selector("#my-tables .mine-group[data-group=playing] a")
    assert not page.errors
    page.context.close()


def test_the_last_choices_are_remembered(site):  # noqa: F811
    page = fresh_page(site)
    page.select_option("select[name=tier-alphacode]", "hard")
    page.click(".game-card[data-game=alphacode] .play-ai")
    page.wait_for_selector(".board .alphacode")
    assert "hard" in page.inner_text(".seat-list").lower()
    page.goto(site[0])
    page.wait_for_selector(".game-card")
    assert page.input_value("select[name=tier-alphacode]") == "hard"
    page.context.close()


def test_a_friend_takes_the_seat_through_the_invite_panel(site):  # noqa: F811
    host = fresh_page(site)
    host.click(".game-card[data-game=coda] .play-friends")
    host.wait_for_selector("#invite #invite-qr svg")
    code = host.inner_text("#invite-code")
    assert len(code) == 5
    assert "waiting for a friend" in host.inner_text("#invite .invite-seats")
    link = host.input_value("#invite-link")
    assert f"/t/{code}#invite=" in link  # the link holds the invitation, the code does not
    assert host.eval_on_selector("#invite-qr svg title", "title => title.textContent") == link  # so does the QR code
    stranger = fresh_page(site)  # read the code in the lobby's list
    stranger.goto(f"{site[0]}/t/{code}")
    stranger.wait_for_selector("#invite-only")
    assert not stranger.query_selector("#take-seat-go") and not stranger.query_selector("button.sit")
    host.click("#invite-renew")  # the link went further than meant: a new one
    shown = "old => { const qr = document.querySelector('#invite-qr svg title'); return qr && qr.textContent !== old; }"
    host.wait_for_function(shown, arg=link)
    renewed = host.input_value("#invite-link")
    assert renewed.startswith(f"{site[0]}/t/{code}#invite=") and renewed != link
    assert host.eval_on_selector("#invite-qr svg title", "title => title.textContent") == renewed
    leaked = fresh_page(site)
    leaked.goto(link)
    leaked.click("#take-seat-go")
    leaked.wait_for_selector("#error")
    assert "link" in leaked.inner_text("#error") and leaked.query_selector("#take-seat-go")
    friend = fresh_page(site)
    friend.goto(renewed)
    friend.click("#take-seat-go")
    friend.wait_for_selector("#take-seat", state="detached")
    friend.wait_for_function(  # the seat's view follows the claim's answer
        "() => /Player 2|You/.test(document.querySelector('.table-head .you')?.textContent ?? '')"
    )
    host.wait_for_selector("#invite", state="detached")  # every seat taken: the panel closed
    stranger.wait_for_selector("#invite-only", state="detached")
    assert not host.errors and not friend.errors and not stranger.errors and not leaked.errors
    for page in (host, stranger, leaked, friend):
        page.context.close()


def test_another_seated_players_invite_panel_follows_a_renewal(site):  # noqa: F811
    """A friend seated at a table with a seat still open shows the same invite panel; when the host
    renews the link, the friend's panel shows the new one at once (the "invite" message)."""
    host = fresh_page(site)
    host.select_option("select[name=players-coda]", "3")
    host.click(".game-card[data-game=coda] .play-friends")
    host.wait_for_selector("#invite #invite-qr svg")
    link = host.input_value("#invite-link")
    friend = fresh_page(site)
    friend.goto(link)
    friend.click("#take-seat-go")
    friend.wait_for_selector("#take-seat", state="detached")
    friend.wait_for_selector("#invite #invite-qr svg")  # one seat is still open: the friend may invite too
    assert friend.input_value("#invite-link") == link
    host.click("#invite-renew")
    changed = "old => document.querySelector('#invite-link')?.value !== old"
    host.wait_for_function(changed, arg=link)
    renewed = host.input_value("#invite-link")
    friend.wait_for_function(changed, arg=link)
    assert friend.input_value("#invite-link") == renewed
    assert friend.eval_on_selector("#invite-qr svg title", "title => title.textContent") == renewed
    assert not host.errors and not friend.errors
    for page in (host, friend):
        page.context.close()

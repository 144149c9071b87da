"""Table chat in the browser (issue 28 §5): two players and a spectator on a toy table (the generic
board). The players talk, a line typed as markup shows as text, a muted player is not heard, and
the spectator's line reaches the players only once the game is over."""

from __future__ import annotations

import httpx
import pytest

from .browser import site_fixture

pytestmark = pytest.mark.e2e
MARKUP = "<img src=x onerror=window.pwned=1> gg"


# the toy game, and no chat rate to speak of (the test's lines come faster than people type)
site = site_fixture(games={"toy": "tests.core.toy_game:ToyGame"}, chat_per_minute=6000)


def visitor(site, code: str):
    """A page of its own browser context at table ``code``."""
    url, browser = site
    page = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB").new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"{url}/t/{code}")
    page.wait_for_selector("#chat")
    return page


def sit(page, seat: int) -> None:
    page.click(f"#take-seat-go[data-seat='{seat}']")
    page.wait_for_selector(f".seat-list li.me:nth-child({seat + 1})")


def lines(page) -> str:
    return page.inner_text("#chat-lines")


def shown(page, text: str) -> None:
    """Wait until the chat shows a line holding ``text``."""
    page.locator("#chat-lines li", has_text=text).wait_for()


def act(page, amount: int) -> None:
    """Play ``add amount`` through the page's socket (the toy's view names no seat to move, which
    the page's own controls wait for)."""
    page.evaluate(
        "amount => window.codecrack.socket.send(JSON.stringify({type: 'action', action: {type: 'add', amount}}))",
        amount,
    )


def say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")


def test_players_chat_mute_and_a_spectators_line_waits_for_the_end(site):
    url = site[0]
    made = httpx.post(
        f"{url}/api/tables",
        json={"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"target": 3, "first": 0}},
    )
    code = made.json()["code"]
    ann, bob = visitor(site, code), visitor(site, code)
    sit(ann, 0)
    sit(bob, 1)
    watcher = visitor(site, code)

    ann.click(".chat-phrases summary")
    ann.click("[data-phrase=good_luck]")
    for page in (ann, bob, watcher):
        shown(page, "Good luck")
    say(bob, MARKUP)
    shown(ann, MARKUP)
    assert ann.evaluate("window.pwned") is None and not ann.query_selector("#chat-lines img")  # text, not markup

    say(watcher, "ann holds a 7")
    shown(watcher, "ann holds a 7")
    ann.click(".chat-mutes summary")
    ann.check("[data-mute='1']")
    say(bob, "you cannot hear me")
    shown(watcher, "you cannot hear me")
    say(watcher, "the audience again")
    shown(watcher, "the audience again")
    bob.click(".chat-phrases summary")
    bob.click("[data-phrase=thanks]")  # said after the spectator's lines, so it would show after them
    shown(bob, "Thanks")
    ann.uncheck("[data-mute='1']")
    bob.click("[data-phrase=well_played]")
    shown(ann, "Well played")
    for page in (ann, bob):
        assert "ann holds a 7" not in lines(page) and "the audience again" not in lines(page)
    assert "you cannot hear me" not in lines(ann)

    act(ann, 1)
    bob.wait_for_selector(".generic-state:has-text('\"total\": 1')")
    act(bob, 2)  # three: the game is over
    for page in (ann, bob):
        shown(page, "ann holds a 7")
        assert "Spectator: ann holds a 7" in lines(page)
    assert not ann.errors and not bob.errors and not watcher.errors
    for page in (ann, bob, watcher):
        page.context.close()


def test_a_player_turns_the_chat_off(site):
    made = httpx.post(
        f"{site[0]}/api/tables", json={"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    ann, bob = visitor(site, made["code"]), visitor(site, made["code"])
    sit(ann, 0)
    sit(bob, 1)
    ann.click("#chat-switch")
    bob.wait_for_selector("#chat-off")
    assert "turned the chat off" in lines(bob) and not bob.query_selector("#chat-text")
    for page in (ann, bob):
        page.context.close()

"""Learning in the browser: each game's tutorial completed by clicking what the coach shows, and
the how-to pages, opened from the lobby and from a table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from .browser import SCREENSHOTS
from .test_e2e import new_table, site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e

GAMES = ["coda", "coding", "alphacode"]
THAI = re.compile("[\u0e00-\u0e7f]")


def open_page(site, path: str = "/", locale: str = "en-GB"):
    url, browser = site
    page = browser.new_page(viewport={"width": 1200, "height": 900}, locale=locale)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url + path)
    return page


def decode_form(page) -> None:
    """The Coding's decode: the coach names D 5 7 (the only code left on the sheet)."""
    page.select_option("select[name=decode-letter]", "D")
    page.select_option("select[name=decode-x1]", "5")
    page.select_option("select[name=decode-x2]", "7")
    page.click("#coding-decode-go")


def follow_the_coach(page, limit: int = 200, screenshot: str | None = None) -> int:
    """Click "Next" or the highlighted control until the coach says the tutorial is complete;
    returns how many clicks it took. ``screenshot`` names a picture taken at the fourth click."""
    finished = "learn.coach.finished"
    for clicks in range(limit):
        page.wait_for_selector("#coach-next, .coach-target, #coach[data-finished]", timeout=15000)
        if page.query_selector("#coach[data-finished]"):
            return clicks
        if screenshot and clicks == 3:
            page.screenshot(path=str(SCREENSHOTS / screenshot))
        try:
            if page.query_selector("#coach-next"):
                page.click("#coach-next", timeout=2000)
            elif page.query_selector("#coding-decode.coach-target"):
                decode_form(page)
            else:
                page.locator(".coach-target").first.click(timeout=2000)
        except PlaywrightError:  # the page re-rendered under the pointer (a new state): look again
            pass
        page.wait_for_timeout(60)
    raise AssertionError(f"the tutorial did not finish: {page.inner_text('#coach')} ({finished})")


def start_tutorial(site, game: str, locale: str = "en-GB"):
    page = open_page(site, locale=locale)
    page.click(f"#learn button.tutorial[data-game={game}]")
    page.wait_for_selector("#coach")
    return page


@pytest.mark.parametrize("locale", ["en-GB", "th-TH"])
@pytest.mark.parametrize("game", GAMES)
def test_the_tutorial_is_completed_by_clicking(site, game, locale):
    page = start_tutorial(site, game, locale)
    assert page.query_selector("#rematch") is None
    welcome = page.inner_text("#coach-text")
    assert THAI.search(welcome) if locale == "th-TH" else not THAI.search(welcome)
    clicks = follow_the_coach(
        page, screenshot="tutorial-coding-th.png" if (game, locale) == ("coding", "th-TH") else None
    )
    assert clicks > 5
    if game != "coda":  # The Coding and Alphabet Code tutorials end with the learner's win
        page.wait_for_selector("#result")
    assert page.errors == []
    page.close()


def test_the_coach_refuses_another_click_with_a_hint(site):
    page = start_tutorial(site, "coda")
    page.click("#coach-next")
    page.click("button.opening.coach-target")  # the classic opening split: 2 black, 2 white
    page.click("#coach-next")
    page.click("button.draw.coach-target")  # a colour for the draw
    page.wait_for_selector(".coda-row[data-seat='1'] .tile.coach-target")
    page.screenshot(path=str(SCREENSHOTS / "tutorial-coda.png"))
    page.click(".coda-row[data-seat='1'] .tile.pick >> nth=1")  # not the tile the coach shows
    page.click(".guess-picker .value >> nth=3")
    page.wait_for_selector("#coach-hint")
    assert "guesses" not in page.inner_text("#history")  # nothing was sent
    page.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_how_to_page_opens_from_the_lobby(site, game):
    page = open_page(site)
    page.click(f"#learn li[data-game={game}] a.howto")
    page.wait_for_selector(f"#rules[data-game={game}] #rules-pictures .board")
    for section in ("goal", "setup", "turn", "end", "options", "tips"):
        assert page.inner_text(f"#rules-{section}").strip()
    assert page.query_selector_all("#rules-options dt")  # the game's own option titles
    if game == "coding":
        page.screenshot(path=str(SCREENSHOTS / "howto-coding.png"), full_page=True)
    assert page.errors == []
    page.close()


def test_the_how_to_page_opens_from_a_table(site):
    page = new_table(site, "coding", "random")
    with page.context.expect_page() as opened:
        page.click("#howto-link")
    rules = opened.value
    rules.wait_for_selector("#rules[data-game=coding]")
    assert "F 9 8" in rules.inner_text("#rules")
    rules.close()
    page.close()


def test_a_table_shows_one_tip_until_it_is_dismissed(site):
    page = new_table(site, "coda", "random")
    page.wait_for_selector("#tip")
    page.click("#tip-dismiss")
    page.wait_for_selector("#tip", state="detached")
    page.reload()
    page.wait_for_selector(".board")
    assert page.query_selector("#tip") is None
    page.close()


def test_the_how_to_page_is_in_thai(site):
    page = open_page(site, "/#/rules/alphacode", locale="th-TH")
    page.wait_for_selector("#rules[data-game=alphacode] #rules-pictures .board")
    for section in ("goal", "setup", "turn", "end", "tips"):
        assert THAI.search(page.inner_text(f"#rules-{section}")), section
    assert "(O, D)" in page.inner_text("#rules-turn")
    page.screenshot(path=str(SCREENSHOTS / "howto-alphacode-th.png"), full_page=True)
    assert page.errors == []
    page.close()


def test_coda_teaches_the_opening_split_and_the_colour_of_each_draw(site):
    """Issue 25 §4.7: the default table draws classic, so the tutorial does: the coach outlines
    the opening split, then one colour's draw button (not any draw)."""
    page = start_tutorial(site, "coda")
    page.click("#coach-next")
    opening = page.wait_for_selector("button.opening.coach-target")
    assert opening.get_attribute("data-black") == "2" and "classic" in page.inner_text("#coach-text")
    opening.click()
    page.click("#coach-next")
    draw = page.wait_for_selector("button.draw.coach-target")
    assert draw.get_attribute("data-color") == "white" and page.locator("button.draw").count() == 2
    assert "colour" in page.inner_text("#coach-text")
    page.close()

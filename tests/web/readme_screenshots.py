"""The README's pictures (docs/screenshots/readme-*.png), taken again by ``make screenshots``.

Not part of the suite (its name is not test_*): run it on purpose, look at the pictures, commit them.
Each picture is a moment of a real game, how-to page or tutorial on a throw-away server, in
Debian's chromium, at a desktop width (1280 px) or on a phone (390 x 844, touch).
"""

from __future__ import annotations

import pytest

from .browser import SCREENSHOTS
from .test_e2e import new_table, site  # noqa: F401  (the module's server and browser)
from .test_e2e_learn import open_page, start_tutorial

pytestmark = pytest.mark.e2e

DESKTOP = (1280, 800)
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
NOTES_SHOWN = "() => window.codecrack.hint !== null && window.codecrack.hintStep === window.codecrack.step"


def shot(page, name: str, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"readme-{name}.png"), full_page=full_page)
    assert page.errors == [], page.errors
    page.close()


def coach_until(page, selector: str) -> None:
    """Click "Next" or what the coach outlines until ``selector`` shows."""
    for _ in range(60):
        page.wait_for_selector(f"#coach-next, .coach-target, {selector}")
        if page.query_selector(selector):
            return
        page.click("#coach-next") if page.query_selector("#coach-next") else page.locator(".coach-target").first.click()
        page.wait_for_function("() => !window.codecrack.sending")
    raise AssertionError(f"the coach never showed {selector}")


def alphacode_asked(page) -> None:
    """A code made at random and three zones asked: answers and auto-notes on the sheet."""
    page.click("#alphacode-random")
    mine = "window.codecrack.view.questions.filter((q) => q.target === window.codecrack.view.target).length"
    for asked in range(3):
        page.locator("#target-sheet button.ask.zone").first.click()
        page.wait_for_function(f"() => {mine} > {asked} && document.querySelector('#target-sheet button.ask.zone')")
    page.wait_for_function(NOTES_SHOWN)


def test_coda_table(site):
    page = new_table(site, "coda", "easy", viewport=DESKTOP)
    page.click("button.opening >> nth=2")
    page.wait_for_selector(".notes .sheet td.ruled-out")
    page.wait_for_function(NOTES_SHOWN)
    shot(page, "coda")


def test_alphacode_at_1280(site):
    page = new_table(site, "alphacode", "easy", viewport=DESKTOP)
    alphacode_asked(page)
    shot(page, "alphacode")


def test_alphacode_on_a_phone(site):
    url, browser = site
    page = browser.new_page(**PHONE)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    page.select_option("#create-form select[name=game]", "alphacode")
    page.select_option("#create-form select[name=seat-1]", "ai:easy")
    page.fill("#create-form input[name=name]", "Tester")
    page.click("#create-go")
    alphacode_asked(page)
    page.locator("#target-sheet").scroll_into_view_if_needed()
    shot(page, "alphacode-phone")


def test_coda_tutorial(site):
    page = start_tutorial(site, "coda")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    coach_until(page, ".coda-row[data-seat='1'] .tile.coach-target")
    shot(page, "tutorial-coda")


def test_coding_tutorial_in_thai(site):
    page = start_tutorial(site, "coding", "th-TH")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    coach_until(page, ".notes.coach-target")
    page.wait_for_function(NOTES_SHOWN)
    page.locator(".notes").scroll_into_view_if_needed()
    shot(page, "tutorial-coding-th")


@pytest.mark.parametrize("game, locale", [("coding", "en-GB"), ("alphacode", "th-TH")])
def test_how_to_play(site, game, locale):
    page = open_page(site, f"/#/rules/{game}", locale)
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.wait_for_selector(f"#rules[data-game={game}] #rules-pictures .board")
    shot(page, f"howto-{game}{'-th' if locale == 'th-TH' else ''}")


def test_the_coding_in_thai(site):
    page = open_page(site, "/", "th-TH")
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.select_option("#create-form select[name=game]", "coding")
    page.select_option("#create-form select[name=seat-1]", "ai:easy")
    page.fill("#create-form input[name=name]", "Tester")
    page.click("#create-go")
    page.click("button.order >> nth=0")
    page.wait_for_selector(".stack[data-type]:is(button)")
    page.wait_for_function(NOTES_SHOWN)
    shot(page, "coding-th")

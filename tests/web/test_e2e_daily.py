"""The daily Alphabet Code in the browser: solved by clicking the sheet, then the result, the
day's scores and a share text that holds no letter or square of the code."""

from __future__ import annotations

import re

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)
from .test_e2e_i18n import PSEUDO, assert_all_marked, page_in

pytestmark = pytest.mark.e2e

SQUARE_TO_ASK = "#target-sheet .cell.ask.hsq, #target-sheet .cell.ask.vsq"


def test_the_daily_code_is_solved_and_shared(site):  # noqa: F811
    url, browser = site
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.click("#nav-daily")
    page.wait_for_selector("#daily[data-over=false] #target-sheet")
    for asked in range(1, 40):  # every square answered settles the code
        if page.query_selector("#alphacode-declare-call"):
            break
        page.locator(SQUARE_TO_ASK).first.click()
        page.wait_for_selector(f".answers-list li:nth-child({asked})")
    page.click("#alphacode-declare-call button")
    page.wait_for_selector("#daily[data-over=true] #daily-result")
    assert "Solved" in page.inner_text("#daily-result h3")
    code = re.findall(r"([a-j])@([N-R])([A-M])", page.inner_text("#daily-result"))
    assert len(code) == 5
    share = page.inner_text("#daily-share")
    title, *grid = share.strip().split("\n")
    assert grid and all(not re.search(r"[A-Za-z0-9@]", line) for line in grid)
    for letter, row, column in code:
        assert f"{letter}@" not in share and f"{row}{column}" not in share
    assert page.query_selector("#daily-chart .daily-bar.mine")
    page.reload()  # the day's attempt is kept: still over, the same result
    page.wait_for_selector("#daily[data-over=true] #daily-result")
    page.click("#daily-practice")  # practice codes afterwards, as many as wanted
    page.wait_for_selector("#daily[data-over=false] #daily-give-up")
    assert not errors
    context.close()


def marked_share(route):
    """The server's share text (translated by the server's catalogues, which have no pseudo-language)
    with its title marked as a translated text."""
    response = route.fetch()
    attempt = response.json()
    if attempt.get("result"):
        title, *grid = attempt["result"]["share"].split("\n")
        attempt["result"]["share"] = "\n".join([f"⟦{title}⟧", *grid])
    route.fulfill(response=response, json=attempt)


def test_the_daily_page_has_no_text_outside_the_catalogues(site):  # noqa: F811
    page = page_in(site, PSEUDO)
    page.context.route("**/api/daily/alphacode**", marked_share)
    page.goto(f"{site[0]}/daily")
    page.wait_for_selector("#daily #target-sheet")
    assert_all_marked(page, "daily, asking")
    page.click("#daily-give-up")
    page.wait_for_selector("#daily-result")
    assert_all_marked(page, "daily, over")
    assert page.errors == []

"""The daily Coda puzzle in the browser (issue 28 §3): it is answered on Coda's own board and graded,
and the odds of every guess, the streak and a share text without the guess show only after the answer."""

from __future__ import annotations

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e


def test_a_coda_puzzle_is_answered_and_graded(site):  # noqa: F811
    url, browser = site
    page = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB").new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/daily")
    page.click("#daily-coda")
    page.wait_for_selector("#puzzle[data-answered=false] .coda-row.own")
    assert "Difficulty:" in page.inner_text("#puzzle-grade")
    assert not page.query_selector("#puzzle-odds")  # nothing of the answer before it
    page.click(".coda-row:not(.own) button.tile.pick")
    page.click("#coda-guess button.value")
    page.wait_for_selector("#puzzle[data-answered=true] #puzzle-result")
    assert page.locator("#puzzle-odds li").count() >= 2
    assert page.locator("#puzzle-odds li.best").count() == 1 and page.locator("#puzzle-odds li.mine").count() == 1
    assert "%" in page.inner_text("#puzzle-best") and "%" in page.inner_text("#puzzle-chosen")
    share = page.inner_text("#puzzle-share")
    assert share.startswith("codecrack daily Coda puzzle") and "#" not in share and "black" not in share
    assert page.inner_text("#puzzle-streak").startswith("Streak:")
    page.reload()
    page.wait_for_selector("#puzzle[data-answered=true]")  # one answer a day: it stays answered
    assert not errors
    page.context.close()

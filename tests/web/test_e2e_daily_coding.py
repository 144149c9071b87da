"""The daily Coding puzzle in the browser (issue 28 §3): an opponent's code is written with The
Coding's own decode form and graded; the odds, the streak and a share text without the code show
only after the answer."""

from __future__ import annotations

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)
from .test_e2e_i18n import PSEUDO, assert_all_marked, page_in

pytestmark = pytest.mark.e2e


def test_a_coding_puzzle_is_answered_and_graded(site):  # noqa: F811
    url, browser = site
    page = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB").new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/daily")
    page.click("#daily-coding")
    page.wait_for_selector("#puzzle[data-answered=false] #coding-decode")
    assert "Difficulty:" in page.inner_text("#puzzle-grade")
    assert not page.query_selector("#puzzle-odds")  # nothing of the answer before it
    assert not page.query_selector("#coding-answers")  # the decode is the only answer offered
    page.select_option("#coding-decode select[name=decode-letter]", "B")
    page.click("#coding-decode-go")
    page.wait_for_selector("#puzzle[data-answered=true] #puzzle-result")
    assert page.locator("#puzzle-odds li.best").count() == 1
    assert "%" in page.inner_text("#puzzle-best") and "B01" in page.inner_text("#puzzle-chosen")
    share = page.inner_text("#puzzle-share")
    assert share.startswith("codecrack daily Coding puzzle") and "B01" not in share
    page.reload()
    page.wait_for_selector("#puzzle[data-answered=true]")  # one answer a day: it stays answered
    assert not page.query_selector("#coding-decode")
    assert not errors
    page.context.close()


def marked_answer(route):
    """The server's share text (translated from the .po files; no pseudo-language there) marked."""
    puzzle = route.fetch().json()
    if puzzle.get("answer"):
        title, *squares = puzzle["answer"]["share"].split("\n")
        puzzle["answer"]["share"] = "\n".join([f"⟦{title}⟧", *squares])
    route.fulfill(json=puzzle)


def test_the_coding_puzzle_has_no_text_outside_the_catalogues(site):  # noqa: F811
    page = page_in(site, PSEUDO)
    page.context.route("**/api/daily/coding", marked_answer)
    page.goto(f"{site[0]}/daily?game=coding")
    page.wait_for_selector("#puzzle[data-answered=false] #coding-decode")
    assert_all_marked(page, "coding puzzle, asked")
    page.click("#coding-decode-go")
    page.wait_for_selector("#puzzle[data-answered=true] #puzzle-result")
    assert_all_marked(page, "coding puzzle, answered")
    assert page.errors == []
    page.context.close()

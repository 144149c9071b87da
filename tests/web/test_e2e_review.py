"""End to end in headless Chromium: after a game, the Review button shows the seat's graded
decisions beside the replay, and steps through them."""

from __future__ import annotations

import json
import random

import pytest

from codecrack.web.hints import provider

from .browser import SCREENSHOTS
from .test_e2e import coda_moves, finish, new_table, play, site  # noqa: F401 (site is a fixture)

pytestmark = pytest.mark.e2e


def test_review_beside_the_replay_after_a_coda_game(site):  # noqa: F811
    page = new_table(site, "coda", "medium")
    play(page, random.Random(8), coda_moves)
    finish(page, "coda-before-review.png")
    page.click("#review")
    page.wait_for_selector("#review-panel .review-decision")
    assert page.query_selector("#replay-bar")
    grades = page.locator("#review-panel .review-grade").evaluate_all("els => els.map((b) => b.firstChild.textContent)")
    assert grades and set(grades) <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    guesses = [
        text
        for text in page.locator("#review-panel .review-did").all_inner_texts()
        if text.startswith(("black", "white"))
    ]
    assert guesses and all("on seat 2's tile " in text and "tile 0 " not in text for text in guesses)  # as at the table
    assert "numbered from 1" in page.inner_text("#review-panel")
    check_the_replay_shows_the_steps_own_odds(page)
    first = page.inner_text("#replay-step")
    steps = page.locator("#review-panel .review-step").all_inner_texts()
    assert first.startswith(steps[0] + " /")  # the replay opens at the first decision
    if len(set(steps)) > 1:
        page.click("#review-next")
        page.wait_for_function(f"document.querySelector('#replay-step').textContent !== {first!r}")
        assert page.query_selector("#review-panel .review-decision.current")
    page.screenshot(path=str(SCREENSHOTS / "coda-review.png"), full_page=True)
    assert page.errors == []


def check_the_replay_shows_the_steps_own_odds(page) -> None:
    """Issue 25 §4.3: with "show probabilities" on, a replayed step shows the odds the seat saw then
    (the hint of that step's frame), never the end's."""
    page.check("#hints")
    shown = "() => { const r = window.codecrack.replay; return r.hints[r.at] ? [r.at, r.frames[r.at], r.hints[r.at]] : null; }"
    at, frame, hint = page.wait_for_function(shown).json_value()
    assert at < len(page.evaluate("() => window.codecrack.replay.frames")) - 1
    assert (
        hint
        == json.loads(json.dumps(provider("coda")(frame)))
        != json.loads(json.dumps(provider("coda")(page.evaluate("() => window.codecrack.view"))))
    )

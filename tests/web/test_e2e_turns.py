"""What a turn says (issue 25 §4.5, §4.6): the clock shows the time left from the start of the turn,
and Coda says you won the round before asking you to place your drawn tile."""

from __future__ import annotations

import re

import pytest

from .test_e2e import new_table, site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e


def test_the_turn_clock_shows_the_time_left_from_the_start(site):
    page = new_table(site, "coda", "random", {"clock": True, "first": "0"})
    page.click("button.opening >> nth=0")
    page.wait_for_selector("button.draw")
    page.wait_for_selector(".clock .clock-text")
    page.wait_for_function("() => document.querySelector('.clock-text').textContent.trim() !== ''")
    shown = page.inner_text(".clock .clock-text")
    minutes, seconds = map(int, re.search(r"(\d+):(\d\d)", shown).groups())
    assert 60 < minutes * 60 + seconds <= 80, shown  # 60 s of thinking and the 20 s countdown, from the start
    assert "urgent" not in page.get_attribute(".clock", "class")
    page.close()


def test_coda_says_you_won_the_round_before_place_your_drawn_tile(site):
    page = new_table(site, "coda", "random", {"first": "0"})
    page.click("button.opening >> nth=0")
    page.wait_for_selector("button.draw")
    page.evaluate("""() => {
        const table = window.codecrack, view = table.view;  // the moment after the round-winning hit
        view.legal_actions = [{ type: "place", index: 0 }];
        view.eliminated = [1];
        table.render();
    }""")
    prompt = page.inner_text("#coda-place-prompt, .controls .prompt")
    assert prompt.startswith("You won the round!") and "Place your drawn tile" in prompt, prompt
    page.close()

"""A tutorial that ends with the game over does not offer to play on (issue 25 §4.10)."""

from __future__ import annotations

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)
from .test_e2e_learn import follow_the_coach, start_tutorial

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("game", ["coding", "alphacode"])
def test_a_finished_tutorial_game_does_not_offer_to_play_on(site, game):
    page = start_tutorial(site, game)
    follow_the_coach(page)
    page.wait_for_selector("#result")
    page.wait_for_selector("#coach[data-finished]")
    said = page.inner_text("#coach-text")
    assert "Play on" not in said and "lobby" in said, said
    page.close()

"""The review speaks each game's language (issue 25 §5): Coda's "tile 1 is the leftmost" only in Coda."""

from __future__ import annotations

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)
from .test_e2e_learn import open_page

pytestmark = pytest.mark.e2e

EMPTY_REVIEW = {"decisions": [], "tally": {"best": 0, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0}}


@pytest.mark.parametrize("game, leftmost", [("coda", True), ("coding", False), ("alphacode", False)])
def test_only_codas_review_says_tile_1_is_the_leftmost(site, game, leftmost):
    page = open_page(site)
    page.wait_for_selector("#create-form")
    said = page.evaluate(
        """async ([review, game]) => {
            const { reviewPanel } = await import("/static/js/review.js");
            return reviewPanel(review, 0, () => {}, game).querySelector("p.muted").textContent;
        }""",
        [EMPTY_REVIEW, game],
    )
    assert ("leftmost" in said) == leftmost, said
    page.close()

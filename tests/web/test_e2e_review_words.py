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


def decision(kind, unit, did, value, best, best_value, grade, limits, share=False):
    return {
        "step": 3, "kind": kind, "did": did, "value": value, "best": best, "best_value": best_value,
        "unit": unit, "grade": grade, "note": "", "limits": limits, "share": share,
    }  # fmt: skip


PLAIN = [
    (
        "alphacode",
        decision("question", "bits", "ask O D", 1.90, "ask Q F", 2.21, "good", [0.15, 0.35, 0.6], share=True),
        ["narrows the code 86% as much as the best question", "narrows the code 100% as much as the best question"],
        "Good: less than 15% short of the best.",
    ),
    (
        "coda",
        decision("go on or stop", "tiles", "went on", 0.81, "stop", 1.15, "inaccuracy", [0.15, 0.4, 0.8]),
        ["0.81 expected tiles you would win from here", "1.15 expected tiles you would win from here"],
        "Inaccuracy: 0.15 tiles to 0.40 tiles short of the best.",
    ),
    (
        "coding",
        decision(
            "decode", "chance", "decode seat 2 as D57", 0.5, "decode seat 2 as D75", 0.75, "mistake", [0.05, 0.15, 0.3]
        ),
        ["50.0% chance", "75.0% chance"],
        "Mistake: 15 percentage points to 30 percentage points short of the best.",
    ),
]


@pytest.mark.parametrize("game, made, says, why", PLAIN, ids=[game for game, *_ in PLAIN])
def test_the_review_speaks_plainly_and_explains_each_grade_on_hover(site, game, made, says, why):
    """Issue 25 §5: not "1.90 expected bits, best 2.21" but what it means for the player, and a
    grade's meaning on hover (its title) and for screen readers (a visually hidden text)."""
    page = open_page(site)
    page.wait_for_selector("#create-form")
    row = page.evaluate(
        """async ([review, game]) => {
            const { reviewPanel } = await import("/static/js/review.js");
            const li = reviewPanel(review, 0, () => {}, game).querySelector(".review-decision");
            const grade = li.querySelector(".review-grade");
            const spoken = grade.querySelector(".sr-only").textContent;
            return { text: li.textContent.replace(spoken, ""), title: grade.title, spoken };
        }""",
        [{**EMPTY_REVIEW, "decisions": [made]}, game],
    )
    for words in says:
        assert words in row["text"], row["text"]
    assert "bits" not in row["text"]
    assert row["title"] == why and row["spoken"] == f" ({why})"
    page.close()

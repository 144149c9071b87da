"""Alphabet Code shows its letters (issue 25 §2): the seven-segment shapes, drawn from the game's own
letter definitions, on the how-to page (both sets), while making a code, and on every builder button."""

from __future__ import annotations

import json

import pytest

from codecrack.games.alphacode.letters import GLYPHS, LETTER_SETS

from .test_e2e import new_table, site  # noqa: F401  (the module's server and browser)
from .test_e2e_i18n import CATALOGUES
from .test_e2e_learn import open_page, start_tutorial

pytestmark = pytest.mark.e2e


def drawn(page, selector: str) -> dict[str, str]:
    """letter -> the segments drawn dark, for every drawing under ``selector`` (items with data-letter)."""
    return page.eval_on_selector_all(
        selector,
        """items => Object.fromEntries(items.map((item) => [item.dataset.letter,
            [...item.querySelectorAll("svg.glyph line.on")].map((line) => line.dataset.segment).sort().join("")]))""",
    )


def test_the_how_to_page_charts_both_letter_sets(site):
    page = open_page(site, "/#/rules/alphacode")
    page.wait_for_selector("#rules-chart .letter-chart")
    assert drawn(page, "#rules-chart .letter-chart li") == GLYPHS
    assert len(LETTER_SETS[20]) == len(GLYPHS) == 20
    page.close()


def test_making_a_code_shows_the_chart_and_each_builder_button_its_shape(site):
    page = new_table(site, "alphacode", "random", {"letters": "20"})
    page.wait_for_selector("#code-builder .palette button.letter")
    assert drawn(page, ".letters-help .letter-chart li") == GLYPHS
    assert drawn(page, "#code-builder .palette button.letter") == GLYPHS
    page.close()


def test_the_tutorial_shows_the_chart_while_the_learner_makes_a_code(site):
    page = start_tutorial(site, "alphacode")
    page.wait_for_selector(".letters-help .letter-chart li")
    assert drawn(page, ".letters-help .letter-chart li") == {letter: GLYPHS[letter] for letter in LETTER_SETS[10]}
    page.close()


def test_the_tutorial_says_what_f_at_nk_means():
    for lang in ("en", "th"):
        settled = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))[
            "learn.tutorial.alphacode.settled"
        ]
        assert "NK" in settled and ("top-left" in settled if lang == "en" else "มุมบนซ้าย" in settled), lang

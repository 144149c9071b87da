"""Tables that say what to do: step prompts, the tab title, the copy-link confirmation."""

from __future__ import annotations

import random

import pytest

from .test_e2e import click_one, move_until, new_table, site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e


def test_the_coding_order_step_has_a_prompt_and_the_tab_says_your_move(site):
    page = new_table(site, "coding", "random")
    page.wait_for_selector("#coding-prompt")
    assert "Order your code" in page.inner_text("#coding-prompt")
    assert page.title().startswith("Your move")
    page.click("button.order")
    page.wait_for_selector("#coding-prompt >> text=data card")  # the take step says what to do too
    page.close()


def test_copy_the_link_confirms(site):
    page = new_table(site, "coda", "random")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#copy-link")
    page.wait_for_selector("#copied >> text=Link copied")
    assert page.errors == []
    page.close()


@pytest.mark.parametrize(
    "hints, says", [(False, "The answers settle the code"), (True, "Only one code is still possible")]
)
def test_alphabet_code_calls_to_declare_once_the_code_is_known(site, hints, says):
    """Once the public answers settle the opponent's code (or, with hints on, once one code is
    left) the table offers "Declare" with that code, and the click declares it, correctly."""
    rng = random.Random(8)
    for _ in range(8):  # the random AI may end the game first (it declares at random): a new table
        page = new_table(site, "alphacode", "random", {"first": "0"})
        page.click("#alphacode-random")
        if hints:
            page.check("#hints")
        if called := move_until(page, rng, ask_a_question, "#alphacode-declare-call", limit=600):
            break
        page.close()
    assert called, "every game ended before the answers settled the code"
    call = page.locator("#alphacode-declare-call")
    assert says in call.inner_text()
    call.locator("button.settled").click()
    page.wait_for_selector("#history >> text=correct!")
    assert page.errors == []
    page.close()


def ask_a_question(page, rng) -> None:
    click_one(page, rng, "#target-sheet button.zone.ask", "#target-sheet button.cell.ask")

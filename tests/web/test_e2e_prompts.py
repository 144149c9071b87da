"""Tables that say what to do: step prompts, the tab title, the copy-link confirmation."""

from __future__ import annotations

import pytest

from .test_e2e import new_table, site  # noqa: F401  (the module's server and browser)

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

"""Every screen fits (issue 25 §1): at 360, 390, 768, 1280 and 1920 px the lobby, every how-to page,
every tutorial step and a table of each game (mid-game and at the end) have no horizontal overflow,
nothing scrolls sideways, and every sheet column is inside the viewport."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Error as PlaywrightError

from .test_e2e import alphacode_moves, coda_moves, coding_moves, new_table, play, site  # noqa: F401
from .test_e2e_learn import GAMES, decode_form, open_page, start_tutorial

pytestmark = pytest.mark.e2e

WIDTHS = [360, 390, 768, 1280, 1920]

# What does not fit at the width shown: the page wider than the window, a box that scrolls
# sideways (a sheet cut off at column K), a sheet's column label outside the window.
PROBLEMS = """() => {
  const width = innerWidth, found = [];
  const page = document.documentElement.scrollWidth;
  if (page > width) found.push(`the page is ${page} px wide`);
  for (const el of document.querySelectorAll("#app *")) {
    const style = getComputedStyle(el);
    if (["auto", "scroll"].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      found.push(`${el.tagName}.${el.className} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  for (const el of document.querySelectorAll(".lattice .label, .sheet thead th")) {
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 0.5 || box.left < -0.5)) found.push(`column ${el.textContent} is outside`);
  }
  return found;
}"""


def check_fits(page, where: str) -> None:
    size = page.viewport_size
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(30)
        assert page.evaluate(PROBLEMS) == [], f"{where} at {width} px"
    page.set_viewport_size(size)


def test_the_lobby_and_every_how_to_page_fit(site):
    page = open_page(site)
    page.wait_for_selector("#create-form select[name=game]")
    check_fits(page, "the lobby")
    page.close()
    for game in GAMES:
        page = open_page(site, f"/#/rules/{game}")
        page.wait_for_selector("#rules-tips")
        check_fits(page, f"how to play {game}")
        page.close()


@pytest.mark.parametrize("game", GAMES)
def test_every_tutorial_step_fits(site, game):
    page = start_tutorial(site, game)
    for step in range(200):
        page.wait_for_selector("#coach-next, .coach-target, #coach[data-finished]", timeout=15000)
        page.wait_for_timeout(60)
        check_fits(page, f"{game} tutorial, click {step}")
        if page.query_selector("#coach[data-finished]"):
            break
        try:
            if page.query_selector("#coach-next"):
                page.click("#coach-next", timeout=2000)
            elif page.query_selector("#coding-decode.coach-target"):
                decode_form(page)
            else:
                page.locator(".coach-target").first.click(timeout=2000)
        except PlaywrightError:  # the page re-rendered under the pointer: look again
            pass
    assert page.query_selector("#coach[data-finished]")
    page.close()


TABLES = [("coda", {}, coda_moves), ("coding", {}, coding_moves), ("alphacode", {"first": "0"}, alphacode_moves)]


def test_the_largest_alphabet_code_sheet_fits(site):
    page = new_table(
        site, "alphacode", "random", {"first": "0", "letters": "20"}
    )  # larger sheets need more work than the server allows
    page.click("#alphacode-random")
    page.wait_for_selector("#target-sheet button.cell.ask")
    check_fits(page, "alphacode, 20 letters")
    page.close()


@pytest.mark.parametrize("game, options, moves", TABLES)
def test_a_table_fits_mid_game_and_at_the_end(site, game, options, moves):
    page = new_table(site, game, "random", options)
    page.check("#hints")
    rng = random.Random(11)
    for _ in range(10):
        moves(page, rng)
        page.wait_for_timeout(60)
    check_fits(page, f"{game} {options} mid-game")
    play(page, rng, moves)
    check_fits(page, f"{game} {options} at the end")
    page.close()

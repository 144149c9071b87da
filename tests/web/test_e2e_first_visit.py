"""The lobby as a first visit meets it (issue 25 §6, §4.1, §4.11): the easiest game first, plain
words, the AI tiers in order, "Join a table" first on a phone, the name's limit, one table per submit."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e

GAMES = ["Coda", "The Coding", "Alphabet Code"]
TIERS = ["AI: random", "AI: easy", "AI: medium", "AI: hard"]


def open_lobby(site, width=1280, height=900):
    url, browser = site
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector("#create-form select[name=game]")
    return page


def test_the_games_come_easiest_first_each_with_a_line_that_says_what_it_is(site):
    page = open_lobby(site)
    assert page.locator("#create-form select[name=game] option").all_inner_texts() == GAMES
    helps = set()
    for game in ("coda", "coding", "alphacode"):
        page.select_option("#create-form select[name=game]", game)
        helps.add(page.inner_text("#game-help").strip())
    assert len(helps) == 3 and all(helps)
    page.close()


def test_the_ai_tiers_come_weakest_first_with_a_line_each_and_no_research_agents(site):
    page = open_lobby(site)
    for game in ("coda", "coding", "alphacode"):
        page.select_option("#create-form select[name=game]", game)
        seat = page.locator("#create-form select[name=seat-1] option").all_inner_texts()
        assert [text for text in seat if text.startswith("AI")] == TIERS, game
        page.click("#tier-help summary")
        lines = page.locator("#tier-help li").all_inner_texts()
        assert len(lines) == 4 and all(":" in line for line in lines), lines
        takeover = " ".join(page.locator("#create-form select[name=takeover] option").all_inner_texts())
        assert "greedy" not in takeover and "bluffer" not in takeover
    page.close()


def test_options_speak_plainly_in_the_lobby_and_on_every_how_to_page(site):
    page = open_lobby(site)
    page.select_option("#create-form select[name=game]", "alphacode")
    first = page.locator("#create-form select[name=opt-first] option").first.inner_text()
    assert first == "drawn at random"
    assert "seed" not in page.inner_text("#create-form")
    page.close()
    for game in ("coda", "coding", "alphacode"):
        page = open_lobby(site)
        page.goto(f"{site[0]}/#/rules/{game}")
        options = page.inner_text("#rules-options .option-list")
        for unplain in ("seed", "default: false", "default: true", "default: —", "default: null"):
            assert unplain not in options, (game, unplain)
        page.close()


def test_on_a_phone_join_a_table_comes_before_the_long_form(site):
    page = open_lobby(site, 390, 844)
    join, form = (page.locator(selector).bounding_box()["y"] for selector in ("#join", "#create"))
    assert join < form
    page.close()


def test_the_name_field_says_its_limit_where_the_name_is_typed(site):
    page = open_lobby(site)
    name = page.locator("#create-form input[name=name]")
    said = page.locator(f"#{name.get_attribute('aria-describedby')}")
    assert said.is_visible() and "40" in said.inner_text()
    assert name.get_attribute("maxlength") == "40"
    page.close()


def test_a_double_click_on_create_table_makes_one_table(site):
    page = open_lobby(site)
    before = {t["code"] for t in json.loads(urllib.request.urlopen(f"{site[0]}/api/tables").read())}
    page.select_option("#create-form select[name=game]", "coda")
    page.dblclick("#create-go")
    page.wait_for_selector(".board")
    page.wait_for_timeout(500)  # a second table, if any, would be made by now
    after = {t["code"] for t in json.loads(urllib.request.urlopen(f"{site[0]}/api/tables").read())}
    assert len(after - before) == 1
    page.close()


def test_out_of_time_is_asked_only_for_a_turn_based_pace(site):
    """Issue 28's leftover: a live table has no move deadline, so the lobby asks what a lapse does
    only once a turn-based pace is chosen."""
    page = open_lobby(site)
    page.select_option("#create-form select[name=game]", "coda")
    assert page.input_value("#create-form select[name=pace]") == ""  # live play by default
    assert page.locator("#create-form select[name=on_lapse]").count() == 0
    assert "null" not in page.inner_text("#create-form")  # the field left out leaves nothing
    page.select_option("#create-form select[name=pace]", "24")
    page.wait_for_selector("#create-form select[name=on_lapse]")
    page.select_option("#create-form select[name=pace]", "")
    page.wait_for_selector("#create-form select[name=on_lapse]", state="detached")
    page.close()

"""The lobby explains itself: labelled options with descriptions, the right controls, presets."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e

PRESETS = [
    ("coda", "tournament", {"rounds": 3, "clock": True}),
    ("coding", "advanced", {"mode": "speed"}),
    ("alphacode", "advanced", {"letters": 20}),
]


def lobby(site, game: str):
    url, browser = site
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(url)
    page.select_option("#create-form select[name=game]", game)
    return page


@pytest.mark.parametrize("game, preset, options", PRESETS)
def test_a_table_is_created_from_a_preset_with_the_lobbys_controls(site, game, preset, options):
    page = lobby(site, game)
    assert "(default)" in page.inner_text("#create-form select[name=preset] option:checked")
    page.select_option("#create-form select[name=preset]", preset)
    for name, value in options.items():
        control = page.locator(f"#create-form [name=opt-{name}]")
        shown = control.is_checked() if isinstance(value, bool) else control.input_value()
        assert shown == (value if isinstance(value, bool) else str(value)), name
    page.fill("#create-form input[name=name]", "Tester")
    page.click("#create-go")
    page.wait_for_selector(".board")
    code = page.inner_text("#table-code")
    table = json.loads(urllib.request.urlopen(f"{site[0]}/api/tables/{code}").read())
    assert {name: table["options"][name] for name in options} == options
    page.close()


def test_every_option_has_a_label_and_a_description_and_seats_count_from_one(site):
    page = lobby(site, "alphacode")
    page.select_option("#create-form select[name=players]", "3")
    for control in page.locator("#create-form .options [name^=opt-]").all():
        described = control.get_attribute("aria-describedby")
        assert described and page.locator(f"#{described}").inner_text().strip()
        assert control.evaluate("c => c.closest('label').title")
    assert page.locator("#create-form [name=opt-columns] option").all_inner_texts()[:3] == ["13", "15", "17"]
    creator = page.locator("#create-form select[name=opt-creator]")
    assert creator.locator("option").all_inner_texts() == ["the last seat", "Seat 1", "Seat 2", "Seat 3"]
    creator.select_option(label="Seat 1")  # the first seat on the page is seat 0 in the engine
    assert "Custom" in page.inner_text("#create-form select[name=preset]")
    page.click("#create-go")
    page.wait_for_selector(".board")
    assert "Code creator: " in page.inner_text(".alphacode")
    code = page.inner_text("#table-code")
    table = json.loads(urllib.request.urlopen(f"{site[0]}/api/tables/{code}").read())
    assert table["options"]["creator"] == 0
    page.close()


def test_the_lobby_says_which_waiting_table_is_rated_before_its_game_starts(site):
    """Issue 27 §3: a table of a rated preset says "Rated" in the lobby's list while it waits for
    its players (its help: when every player has an account); a table of custom options says
    nothing."""
    url, browser = site
    made = {}
    for kind, options in (("rated", {}), ("casual", {"clock": True})):  # Classic; not a preset
        body = {"game": "coda", "seats": [{"kind": "human"}, {"kind": "human"}], "options": options, "name": "Ann"}
        asked = urllib.request.Request(
            f"{url}/api/tables", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        made[kind] = json.loads(urllib.request.urlopen(asked).read())
        assert made[kind]["table"]["rated"] is (kind == "rated") and not made[kind]["table"]["over"]
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(url)
    rows = {kind: page.locator("#tables li", has_text=made[kind]["code"]) for kind in made}
    rows["rated"].locator(".tag.rated").wait_for()
    assert rows["rated"].locator(".tag.rated").inner_text() == "Rated"
    assert "every player has an account" in rows["rated"].locator(".tag.rated").get_attribute("title")
    waiting = rows["rated"].inner_text()
    assert "2 open seats" in waiting or "2 seats for invited friends" in waiting, waiting  # no one sits yet
    assert rows["casual"].count() == 1 and rows["casual"].locator(".tag.rated").count() == 0
    page.close()

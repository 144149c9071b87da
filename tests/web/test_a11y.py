"""Accessibility in headless Chromium: axe-core (from npm, test-only, in tests/web/axe) finds no
serious or critical violation on the lobby, a table of each game in play (with its auto-notes),
finished, in replay and reviewed, the rules pages (in English and Thai) and a tutorial with its coach."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest

from .browser import site_fixture

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not AXE.exists(), reason=f"no axe-core at {AXE}: `make test` installs it (npm ci in tests/web/axe)"
    ),
]
GAMES = ["coda", "coding", "alphacode"]
BLOCKING = {"serious", "critical"}


# A seat left empty is played by the takeover AI at once: a table finishes without us.
site = site_fixture(ai_pace=0.0, disconnect_timeout=0.05, table_info_interval=0.0)


def open_page(site, path: str = "/", locale: str = "en-GB"):
    """A page in its own context; the context lets Playwright inject axe past the CSP."""
    url, browser = site
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True, locale=locale)
    page = context.new_page()
    page.goto(url + path)
    return page


def assert_accessible(page, where: str) -> None:
    found = violations(page)
    assert not found, f"{where}: {len(found)} serious or critical axe violations:\n" + "\n".join(found)


def violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
        ".map((v) => ({ id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary) }))"
    )
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {node}"
        for v in found
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]


def create_table(page, game: str) -> str:
    """Create a table from the lobby: me in seat 1, an AI in seat 2 and an AI taking over if I leave."""
    page.select_option("#create-form select[name=game]", game)
    page.fill("#create-form input[name=name]", "Tester")
    page.click("#create-go")
    page.wait_for_selector(".board")
    return page.inner_text("#table-code")


def table_over(url: str, code: str) -> bool:
    return json.loads(urllib.request.urlopen(f"{url}/api/tables/{code}").read())["over"]


def test_the_lobby(site):
    page = open_page(site)
    page.wait_for_selector("#create-go")
    assert_accessible(page, "the lobby")
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_table_in_play_and_finished(site, game):
    page = open_page(site)
    code = create_table(page, game)
    page.wait_for_function("document.querySelector('#status')?.textContent === 'Your move'")
    page.wait_for_function("window.codecrack.hint !== null && window.codecrack.hintStep === window.codecrack.step")
    assert_accessible(page, f"{game} in play")  # with the sheet's auto-notes
    page.check("#hints")  # the cracking sheet shaded by the probabilities
    page.wait_for_selector(".sheet.odds, #alphacode-candidates")
    assert_accessible(page, f"{game} in play with probabilities")
    page.goto("about:blank")  # I leave: the takeover AI plays my seat to the end
    deadline = time.monotonic() + 120
    while not table_over(site[0], code):
        assert time.monotonic() < deadline, "the AIs did not finish the game"
        time.sleep(0.2)
    page.goto(f"{site[0]}/t/{code}")
    page.wait_for_selector("#result")
    assert_accessible(page, f"{game} finished")
    page.click("#replay")
    page.wait_for_selector("#replay-bar")
    assert_accessible(page, f"{game} replay")
    page.click("#review")
    page.wait_for_selector("#review-panel")
    assert_accessible(page, f"{game} review")
    page.context.close()


@pytest.mark.parametrize("lang", ["en-GB", "th-TH"])
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_pages(site, game, lang):
    page = open_page(site, locale=lang)
    page.goto(f"{site[0]}/#/rules/{game}")
    page.wait_for_selector(f"#rules[data-game={game}] #rules-pictures .board")
    assert_accessible(page, f"how to play {game} ({lang})")
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_with_its_coach(site, game):
    page = open_page(site)
    page.click(f"#learn button.tutorial[data-game={game}]")
    page.wait_for_selector("#coach")
    page.click("#coach-next")
    page.wait_for_selector(".coach-target")
    assert_accessible(page, f"{game} tutorial")
    page.context.close()

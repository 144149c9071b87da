"""The front end in other languages, in headless Chromium.

A pseudo-language built from en.json marks every catalogue text ``⟦...⟧``; walking every text
node, ``aria-label``, ``title``, ``placeholder`` and ``alt`` of the lobby and of each game's table
then finds any text left outside the catalogues. And a turn is played in Thai.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from .browser import SCREENSHOTS
from .test_e2e import alphacode_moves, click_one, coda_moves, coding_moves, site  # noqa: F401 (site: the fixture)

pytestmark = pytest.mark.e2e

CATALOGUES = Path(__file__).resolve().parents[2] / "codecrack" / "web" / "static" / "i18n"
PSEUDO = "xx"
NAME = "Tester"

# Everything a page shows that is a text: the walk returns each with where it was found.
COLLECT_TEXTS = """() => {
  const found = [];
  const skip = (el) => el.closest("script, style, .brand, #language, .generic-state, .generic-actions");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!skip(node.parentElement) && node.textContent.trim()) found.push([node.parentElement.outerHTML.slice(0, 120), node.textContent]);
  }
  const attributes = ["aria-label", "title", "placeholder", "alt", "data-note"];  // data-note: shown by the CSS
  for (const el of document.querySelectorAll(attributes.map((name) => `[${name}]`).join(", "))) {
    if (skip(el)) continue;
    for (const name of attributes) {
      if (el.getAttribute(name)) found.push([`${el.tagName.toLowerCase()}[${name}]`, el.getAttribute(name)]);
    }
  }
  for (const el of document.body.querySelectorAll("*")) {  // texts written by the style sheet
    for (const pseudo of ["::before", "::after"]) {
      const content = getComputedStyle(el, pseudo).content;
      if (content.startsWith('"') && content.length > 2) found.push([`${el.tagName.toLowerCase()}${pseudo}`, JSON.parse(content)]);
    }
  }
  found.push(["title", document.title]);
  return found;
}"""

MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
# What may stand outside the catalogues: game data (numbers, card letters and codes like F98 or
# a@B3, tile values, table codes, percentages), punctuation and symbols, the player's own name,
# the table's link, the coloured squares of a daily puzzle's share text.
DATA = re.compile(
    r"^(?:[\s\d.,:;·•/()\[\]{}%×+=|@#?!–—\-▶▾✕✓✗…⬛⬜🟥🟦🟧🟨🟩✅❌🏳\ufe0f]|[A-Za-z]\d*\b|[A-Z0-9]{2,8}\b|Tester|codecrack"
    r"|https?://\S+)*$"
)


def unmarked(texts: list[list[str]]) -> list[list[str]]:
    """The texts with something left once every marked part is taken out, that is not game data."""
    left = []
    for where, text in texts:
        rest = text
        while MARKED.search(rest):
            rest = MARKED.sub(" ", rest)
        if not DATA.match(rest):
            left.append([where, text])
    return left


def pseudo_catalogue() -> dict[str, str]:
    english = json.loads((CATALOGUES / "en.json").read_text(encoding="utf-8"))
    return {
        key: "\n".join(f"⟦{line}⟧" for line in text.split("\n")) for key, text in english.items()
    }  # a page may split a text into paragraphs


def marked_games(route):
    """The server's catalogue with its texts (translated on the server, from the .po files) marked too."""
    games = route.fetch().json()
    for game in games:
        for item in game["options"] + game["presets"]:
            item["title"], item["help"] = f"⟦{item['title']}⟧", f"⟦{item['help']}⟧"
            if item.get("unset"):
                item["unset"] = f"⟦{item['unset']}⟧"
    route.fulfill(json=games)


def marked_review(route):
    """A review's sentences (written on the server, from the .po files) marked too."""
    review = route.fetch().json()
    for decision in review["decisions"]:
        for key in ("did", "best", "note"):
            decision[key] = f"⟦{decision[key]}⟧" if decision[key] else decision[key]
    route.fulfill(json=review)


def marked_errors(socket):
    """The server's refusals on the websocket (written on the server, from the .po files) marked too."""
    server = socket.connect_to_server()
    socket.on_message(server.send)

    def from_server(message):
        data = json.loads(message)
        if data.get("type") == "error":
            message = json.dumps({**data, "message": f"⟦{data['message']}⟧"})
        socket.send(message)

    server.on_message(from_server)


def page_in(site, lang: str | None):
    """A fresh browser context (an English browser) whose chosen language is ``lang``; the
    pseudo-language is served beside the real catalogues."""
    url, browser = site
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    if lang is not None:
        context.add_init_script(f"localStorage.setItem('codecrack:lang', {json.dumps(lang)})")
    if lang == PSEUDO:
        languages = [{"code": "en", "name": "English"}, {"code": PSEUDO, "name": "Pseudo"}]
        context.route("**/api/languages", lambda route: route.fulfill(json=languages))
        context.route(f"**/static/i18n/{PSEUDO}.json", lambda route: route.fulfill(json=pseudo_catalogue()))
        context.route("**/api/games", marked_games)
        context.route("**/api/tables/*/review", marked_review)
        context.route_web_socket("**/ws/*", marked_errors)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("#create-go")
    return page


def create(page, game: str, options: dict[str, str | bool] | None = None):
    page.select_option("#create-form select[name=game]", game)
    page.select_option("#create-form select[name=seat-1]", "ai:random")
    for name, value in (options or {}).items():
        if isinstance(value, bool):  # a checkbox
            page.set_checked(f"#create-form input[name=opt-{name}]", value)
        else:
            page.select_option(f"#create-form select[name=opt-{name}]", value)
    page.fill("#create-form input[name=name]", NAME)
    page.click("#create-go")
    page.wait_for_selector(".board")


def assert_all_marked(page, moment: str):
    left = unmarked(page.evaluate(COLLECT_TEXTS))
    assert left == [], f"{moment}: texts outside the catalogues: {left}"


def test_the_lobby_has_no_text_outside_the_catalogues(site):
    page = page_in(site, PSEUDO)
    assert_all_marked(page, "lobby")
    for game in ("coding", "alphacode"):  # each game's option form
        page.select_option("#create-form select[name=game]", game)
        assert_all_marked(page, f"lobby, {game} options")
    assert page.errors == []


@pytest.mark.parametrize("game", ["coda", "coding", "alphacode"])
def test_a_how_to_page_has_no_text_outside_the_catalogues(site, game):
    page = page_in(site, PSEUDO)
    page.goto(f"{site[0]}/#/rules/{game}")
    page.wait_for_selector("#rules-pictures")
    assert_all_marked(page, f"{game} how to play")
    assert page.errors == []


@pytest.mark.parametrize(
    "game, moves, options",
    [
        ("coda", coda_moves, {}),
        ("coda", coda_moves, {"dashes": True}),
        ("coding", coding_moves, {}),
        ("coding", coding_moves, {"mode": "one-shot"}),
        ("alphacode", alphacode_moves, {}),
    ],
)
def test_a_game_has_no_text_outside_the_catalogues(site, game, moves, options):
    """Every screen of a whole game, checked after each move, then the end, the replay and the review."""
    page = page_in(site, PSEUDO)
    create(page, game, options)
    rng = random.Random(11)
    if page.query_selector("#hints"):
        page.check("#hints")
    for _ in range(1500):
        assert_all_marked(page, f"{game} in play")
        if page.query_selector("#result"):
            break
        moves(page, rng)
        page.wait_for_timeout(40)
    assert page.query_selector("#result"), "the game did not end"
    assert_all_marked(page, f"{game} over")
    page.click("#review")
    page.wait_for_selector("#review-panel")
    assert_all_marked(page, f"{game} review")
    assert page.errors == []


def test_a_turn_of_coda_in_thai(site):
    """The lobby, the prompts, the buttons and the history in Thai; a turn played by clicking."""
    thai = json.loads((CATALOGUES / "th.json").read_text(encoding="utf-8"))
    page = page_in(site, "th")
    assert page.inner_text("#create-go").strip() == thai["lobby.create"]
    assert page.get_attribute("html", "lang") == "th"
    create(page, "coda", {"first": "0"})
    page.wait_for_selector("button.opening")
    assert thai["coda.prompt.opening"] in page.inner_text(".controls")
    page.locator("button.opening").nth(2).click()
    page.wait_for_selector("#coda-draw-prompt")
    assert page.inner_text("#coda-draw-prompt") == thai["coda.prompt.draw_colour"]
    page.locator("button.draw").first.click()
    page.wait_for_selector("#coda-guess-prompt")
    assert page.inner_text("#coda-guess-prompt") == thai["coda.prompt.guess"]
    click_one(page, random.Random(1), ".coda-row:not(.own) button.tile.pick")
    page.wait_for_selector("#coda-guess button.value")
    page.locator("#coda-guess button.value").first.click()
    page.wait_for_selector("#history >> text=ทายว่า")  # a selector, not a function: the CSP forbids eval
    history = page.inner_text("#history")
    assert "จั่ว" in history and NAME in history
    assert "guesses" not in history and "draws" not in history
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "coda-thai.png"))
    assert page.errors == []


def test_the_coding_in_thai(site):
    """The Thai game in Thai: each prompt is the catalogue's, the history speaks Thai."""
    thai = json.loads((CATALOGUES / "th.json").read_text(encoding="utf-8"))
    prompts = {text for key, text in thai.items() if key.startswith("coding.prompt.")}
    page = page_in(site, "th")
    create(page, "coding", {"first": "0"})
    rng = random.Random(2)
    for _ in range(8):
        page.wait_for_selector("#coding-prompt")
        assert page.inner_text("#coding-prompt") in prompts
        coding_moves(page, rng)
        page.wait_for_timeout(200)
    history = page.inner_text("#history")
    assert "หยิบการ์ดข้อมูล" in history or "ส่ง" in history
    page.set_viewport_size({"width": 1200, "height": 820})
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "coding-th.png"))
    assert page.errors == []


def test_the_header_switch_changes_the_language(site):
    page = page_in(site, None)
    assert page.inner_text("#create-go").strip() == "Create table"
    page.select_option("#language", "th")
    page.wait_for_selector("html[lang=th]")
    thai = json.loads((CATALOGUES / "th.json").read_text(encoding="utf-8"))
    page.wait_for_selector(f"text={thai['lobby.create']}")
    assert page.evaluate("localStorage.getItem('codecrack:lang')") == "th"
    title = page.inner_text("#create-form label[title]")  # an option's title comes from the server, in Thai
    assert title and not title.isascii()

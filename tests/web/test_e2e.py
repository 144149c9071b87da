"""End to end in headless Chromium: for each game, a table against an AI, played to the end by clicking."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .browser import SCREENSHOTS, site_fixture

pytestmark = pytest.mark.e2e


site = site_fixture(ai_pace=0.0, disconnect_timeout=30)


def new_table(site, game: str, ai: str, options: dict[str, str | bool] | None = None, viewport=(1200, 900)):
    """Open the lobby, create a table with seat 1 for me and seat 2 for ``ai``; return the page."""
    url, browser = site
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text else None
    )  # the CSP refused something
    page.errors = errors
    page.goto(url)
    page.select_option("#create-form select[name=game]", game)
    page.select_option("#create-form select[name=seat-1]", f"ai:{ai}")
    for name, value in (options or {}).items():
        if isinstance(value, bool):  # a checkbox
            page.set_checked(f"#create-form input[name=opt-{name}]", value)
        else:
            page.select_option(f"#create-form select[name=opt-{name}]", value)
    page.fill("#create-form input[name=name]", "Tester")
    page.click("#create-go")
    page.wait_for_selector(".board")
    return page


def click_one(page, rng, *selectors: str) -> bool:
    """Click a random visible element of the first selector that matches any; True if clicked."""
    for selector in selectors:
        count = page.locator(selector).count()
        if count:
            try:
                page.locator(selector).nth(rng.randrange(count)).click(timeout=300)
            except Exception:  # the page re-rendered under the pointer; the next round retries
                return False
            return True
    return False


def play(page, rng, moves, limit: int = 1500) -> None:
    """Repeat ``moves(page, rng)`` until the result banner shows."""
    for _ in range(limit):
        if page.query_selector("#result"):
            return
        moves(page, rng)
        page.wait_for_timeout(40)
    raise AssertionError("the game did not end")


HIDDEN = {"coda": ".coda .tile.back", "coding": ".coding .code-card.back"}


def finish(page, name: str, site=None, game: str | None = None) -> str:
    """The result banner names the winner; with ``game``, the end reveal is checked live, for a
    spectator, and on the replay's last frame."""
    result = page.inner_text("#result")
    assert "win" in result or "Nobody" in result
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
    assert page.errors == []
    if game is not None:
        check_end_reveal(page, game)
        spectator = site[1].new_page()  # a fresh context: no seat token
        spectator.goto(page.url)
        spectator.wait_for_selector("#end-summary")
        check_end_reveal(spectator, game)
        assert spectator.query_selector("#rematch") is None  # only a seated player sees Rematch
        spectator.close()
        page.click("#replay")
        page.click("#replay-bar button[title=End]")
        check_end_reveal(page, game)
        page.click("#replay-bar button[title=Start]")
        assert page.query_selector("#end-summary") is None  # the summary belongs to the end
        page.click("#replay-bar button[title=End]")
    return result


def check_end_reveal(page, game: str) -> None:
    """Everything hidden is shown and the summary names the decisive moves."""
    page.wait_for_selector("#end-summary #decisive li")
    if game == "alphacode":  # every code of the game is listed, in the letters@place form
        assert "@" in page.inner_text("#end-summary")
    else:
        assert page.locator(HIDDEN[game]).count() == 0, f"{game}: something stays hidden at the end"


def check_guess_picker(page) -> None:
    """The colour toggle says which colour is picked (aria-pressed and a visible mark); values seen
    elsewhere are greyed but still buttons."""
    pressed = page.locator("#coda-guess button.colour[aria-pressed=true]")
    assert pressed.count() == 1 and "✓" in pressed.inner_text()
    assert "selected" in pressed.get_attribute("class")
    assert page.locator("#coda-guess button.colour").count() == 1  # the tile's own colour only
    # Each value button is greyed exactly when its value shows somewhere (a row, my drawn tile) in the
    # tile's colour, and stays a button. Holding none that the tile may have is possible (an opening of
    # one colour), so none greyed may be right. Read in one task of the page: a render replaces them.
    marks = page.evaluate("""() => {
        const view = window.codecrack.view, shown = new Set();
        const colour = document.querySelector("#coda-guess button.colour").dataset.colour;
        const read = (tile) => { if (tile && tile.value != null && tile.color === colour) shown.add(String(tile.value)); };
        view.rows.forEach((row) => row.forEach(read));
        read(view.drawn);
        return [...document.querySelectorAll("#coda-guess button.value")].map((button) =>
            [button.dataset.value, button.classList.contains("seen"), !button.disabled, shown.has(button.dataset.value)]);
    }""")
    assert marks and all(greyed == seen and enabled for _, greyed, enabled, seen in marks), marks


def coda_moves(page, rng):
    if page.query_selector("#coda-stop") and rng.random() < 0.5:
        click_one(page, rng, "#coda-stop")
        return
    click_one(
        page,
        rng,
        "button.opening",
        "#coda-ready",
        "button.slot",
        "button.draw",
        "#coda-guess button.value",
        ".coda-row:not(.own) button.tile.pick",
        ".coda-row.own button.tile.pick",
    )


def coda_table_showing(site, page, rng, selector: str, tables: int = 4):
    """Random Coda moves until ``selector`` shows; a new table (sound on, hints on) each time a game
    ends first, ``tables`` at most. Returns the page that shows it."""
    for table in range(tables):
        if move_until(page, rng, coda_moves, selector):
            return page
        assert table < tables - 1, f"every game ended before {selector} showed"
        page = new_table(site, "coda", "easy")  # a new browser context: the sound is off again
        page.click("#sound")
        page.wait_for_selector("#sound[aria-pressed=true]")
        page.check("#hints")
    return page


def move_until(page, rng, moves, selector: str, limit: int = 300) -> bool:
    """Repeat ``moves(page, rng)`` until ``selector`` shows (True) or the game ends first (False)."""
    for _ in range(limit):
        if page.query_selector(selector):
            return True
        if page.query_selector("#result"):
            return False
        moves(page, rng)
        page.wait_for_timeout(40)
    return False


def test_coda_against_easy_ai_to_the_end(site):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = new_table(site, "coda", "easy")
    rng = random.Random(3)
    for _ in range(12):  # a few moves, then a reload: the seat token brings us back
        coda_moves(page, rng)
        page.wait_for_timeout(40)
    page.wait_for_selector(".coda-row.own .tile")
    page.reload()
    page.wait_for_selector(".coda-row.own")
    assert "You: Tester" in page.inner_text(".table-head")
    page.click("#sound")  # the turn chime, remembered across a reload
    page.reload()
    page.wait_for_selector("#sound[aria-pressed=true]")
    page.check("#hints")
    # the easy AI sometimes ends a game before a hidden tile is noted or our picker opens: a new table then
    page = coda_table_showing(site, page, rng, ".sheet.odds")
    check_sheet(page, values=12)
    page = coda_table_showing(site, page, rng, "#coda-guess button.colour")
    check_guess_picker(page)
    page.screenshot(path=str(SCREENSHOTS / "coda-table.png"))
    play(page, rng, coda_moves)
    assert page.evaluate("window.codecrack.chimes") > 0
    check_history_scrolls(page)
    finish(page, "coda-result.png", site, "coda")
    page.click("#replay-bar button[title=Start]")
    page.click("#replay-next")
    assert "step 1 /" in page.inner_text("#replay-step")


def check_sheet(page, values: int) -> None:
    """The sheet keeps a header of values; cells hold no percentages (shading only), and a long
    press shows the number."""
    header = page.locator(".sheet thead th")
    assert header.count() == values + 1 and header.nth(1).inner_text() == "0"
    cell = page.locator(".sheet tbody td").first
    assert cell.inner_text() in ("", "✕") and "%" in cell.get_attribute("title")
    assert "%" in long_press_peeks(page, cell)
    size = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.sheet tbody td')).fontSize)")
    assert size >= 12, size  # read in one task: a render in between would leave a detached cell, with no style


def long_press_peeks(page, cell, tries: int = 5) -> str:
    """Hold ``cell`` until its number shows; returns the number (the peeking cell's ``data-odds``).
    A new view re-renders the sheet, and a press on a cell that was replaced meanwhile shows
    nothing (seen under load), so press again. The peek lasts 1.8 s (sheet.js) and a re-render
    ends it too, so the number is read from the cell the wait found, not looked for again."""
    for _ in range(tries):
        cell.dispatch_event("pointerdown")
        try:
            peeking = page.wait_for_selector(".sheet td.peek", timeout=5000)
        except PlaywrightTimeout:
            continue
        return peeking.get_attribute("data-odds")
    raise AssertionError("a long press never showed the cell's number")


def check_history_scrolls(page) -> None:
    """A long game scrolls inside the panel. Read in one task of the page: each render replaces the
    panel, and an element found before a render and read after it is detached (no style, no size)."""
    overflow, scrolls = page.evaluate("""() => {
        const box = document.getElementById("history");
        return [getComputedStyle(box).overflowY, box.scrollHeight > box.clientHeight];
    }""")
    assert overflow == "auto" and scrolls, (overflow, scrolls)


def test_coda_with_dashes_every_drawn_tile_is_placed_by_clicking(site):
    page = new_table(site, "coda", "easy", {"dashes": True})
    rng = random.Random(5)
    placing = 0
    for _ in range(1500):
        if page.query_selector("#result"):
            break
        if (
            page.query_selector("#coda-guess-prompt, #coda-guess") is None
            and page.locator(".coda-row.own button.slot").count()
        ):
            placing += 1
        coda_moves(page, rng)
        page.wait_for_timeout(40)
    assert placing and page.query_selector("#result")
    finish(page, "coda-dashes-result.png")


def test_a_phone_sized_screen(site):
    page = new_table(site, "coda", "random", viewport=(390, 844))
    rng = random.Random(4)
    for _ in range(10):
        coda_moves(page, rng)
        page.wait_for_timeout(40)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing forces sideways scrolling
    page.check("#hints")
    # the AI may have won the first round already (no hidden tile to note): play on into the next
    assert move_until(page, rng, coda_moves, ".sheet.odds"), "the game ended before the sheet showed odds"
    check_sheet(page, values=12)
    page.screenshot(path=str(SCREENSHOTS / "coda-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_alphabet_code_on_a_phone_fills_the_width_with_touch_targets(site):
    page = new_table(site, "alphacode", "random", {"first": "0"}, viewport=(390, 844))
    for letter, corner in zip("acehi", ["NA", "NA", "NA", "NA", "NA"]):  # five letters on one spot
        page.click(f"#code-builder button.letter[data-letter={letter}]")
        page.click(f"#code-sheet .cell[data-row='{corner[0]}'][data-column='{corner[1]}']")
    page.click("#code-go")
    page.wait_for_selector("#code-error")  # the refusal shows beside the builder
    assert page.query_selector("#error") is None
    page.click("#alphacode-random")
    page.wait_for_selector("#target-sheet button.cell.ask")
    # Read in one task of the page: a render (the AI's move) replaces the sheet, and a detached one has no size.
    frame, width, cells = page.evaluate("""() => {
        const sheet = document.getElementById("target-sheet");
        const cells = [...sheet.querySelectorAll("button.cell.ask")].map((cell) => cell.getBoundingClientRect());
        return [sheet.parentElement.clientWidth, sheet.getBoundingClientRect().width,
                cells.map((box) => [box.width, box.height])];
    }""")
    assert width >= frame - 2 and cells
    for box in cells:  # all 13 columns fit: a zone is 32 px or more, a square as long as a zone and half as thick
        assert max(box) >= 32 and min(box) >= 16.5, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SCREENSHOTS / "alphacode-phone.png"), full_page=True)


def test_a_friend_joins_by_code_and_takes_the_open_seat(site):
    url, browser = site
    host = browser.new_page()
    host.goto(url)
    host.select_option("#create-form select[name=seat-1]", "open")
    host.select_option("#create-form select[name=open_to]", "anyone")  # still a choice: a table's code then seats
    host.click("#create-go")
    host.wait_for_selector(".board")
    code = host.inner_text("#table-code")
    friend = browser.new_context().new_page()  # another browser: its own localStorage
    friend.goto(url)
    friend.fill("#join-code", code.lower())
    friend.click("#join-go")
    friend.wait_for_selector("button.sit")
    assert "Spectating" in friend.inner_text(".table-head")
    friend.fill("#sit-name", "Friend")
    friend.click("button.sit")
    friend.wait_for_selector("text=You: Friend")
    host.wait_for_selector(".seat-list >> text=Friend")
    friend.context.close()


def coding_moves(page, rng):
    if page.query_selector("#coding-slap"):
        page.keyboard.press("Space")  # the slap shortcut
        page.wait_for_selector("#coding-decode-go", timeout=5000)
    answering = "cracking" in page.inner_text(".coding")
    if page.query_selector("#coding-decode-go") and (answering or rng.random() < 0.3):
        click_one(page, rng, "#coding-decode-go")
        return
    click_one(
        page,
        rng,
        "button.order",
        "button.give",
        "button.data.stack",
        "#coding-cannot",
        ".hack-row button.hack",
        "#coding-stop",
        "button.reveal",
        "#coding-answer-go",
        "#coding-decode-go",
    )


def test_the_coding_speed_mode_with_the_slap_key(site):
    page = new_table(site, "coding", "easy", {"mode": "speed"})
    rng = random.Random(5)
    play(page, rng, coding_moves)
    history = page.inner_text("#history")
    assert "slaps The First One" in history
    finish(page, "coding-result.png", site, "coding")
    code = page.inner_text("#table-code")
    page.click("#rematch")  # a new table with the same seats; my token follows me there
    page.wait_for_url(lambda url: not url.endswith(code))  # a predicate here: the CSP forbids eval
    page.wait_for_selector(".coding")
    assert "You: Tester" in page.inner_text(".table-head")


def test_the_coding_one_shot_answers(site):
    page = new_table(site, "coding", "random", {"mode": "one-shot"})
    play(page, random.Random(6), coding_moves)
    finish(page, "coding-one-shot.png")


def alphacode_moves(page, rng):
    click_one(
        page,
        rng,
        "#alphacode-random",
        "button.settled",
        "#alphacode-pass",
        "#target-sheet button.zone.ask",
        "#target-sheet button.cell.ask",
    )


def test_alphabet_code_duel_to_the_end(site):
    page = new_table(site, "alphacode", "random", {"first": "0"})
    rng = random.Random(7)
    for _ in range(12):
        alphacode_moves(page, rng)
        page.wait_for_timeout(60)
    page.check("#hints")
    page.wait_for_selector("#alphacode-candidates")
    page.screenshot(path=str(SCREENSHOTS / "alphacode-table.png"))
    page.uncheck("#hints")
    play(page, rng, alphacode_moves)
    finish(page, "alphacode-result.png", site, "alphacode")

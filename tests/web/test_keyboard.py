"""Keyboard only, in headless Chromium: a table of each game is created in the lobby and a few turns
are played with Tab, the arrow keys, Enter, Space, Escape and typing; the mouse is never used."""

from __future__ import annotations

import pytest

from .test_e2e import site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e

TURNS = 4  # my own moves in each game


def focused(page, selector: str) -> bool:
    return page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector)


DESCRIBE = "() => { const el = document.activeElement; return el ? `${el.tagName}#${el.id}.${el.className}` : 'none'; }"


def tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches ``selector``."""
    path = []
    for _ in range(limit):
        if focused(page, selector):
            return
        path.append(page.evaluate(DESCRIBE))
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}; the last stops: {path[-30:]}")


def press(page, selector: str, key: str = "Enter") -> None:
    tab_to(page, selector)
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none", (
        f"no visible focus on {selector}"
    )
    page.keyboard.press(key)


def present(page, selector: str) -> bool:
    return page.locator(selector).count() > 0


def create_by_keyboard(site, game_initial: str):  # noqa: F811
    """The lobby by keyboard: pick the game by typing its initial, name myself, create."""
    url, browser = site
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("#create-go")
    tab_to(page, "#create-form select[name=game]")
    page.keyboard.type(game_initial)
    tab_to(page, "#create-form input[name=name]")
    page.keyboard.type("Keys")
    press(page, "#create-go")
    page.wait_for_selector(".board")
    return page


def my_moves(page) -> int:
    return sum("Keys" in line for line in page.locator("#history li").all_inner_texts())


def status(page) -> str:
    return page.evaluate("() => document.querySelector('#status')?.textContent ?? ''")


def wait_for_status(page, wanted) -> None:
    """Poll (the page's CSP refuses the eval that wait_for_function needs)."""
    for _ in range(600):
        if wanted(status(page)):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the status stayed {status(page)!r}")


def wait_for_my_move(page) -> None:
    wait_for_status(page, lambda text: text in ("Your move", "Game over"))


def play_turns(page, move) -> None:
    for _ in range(200):
        wait_for_my_move(page)
        if present(page, "#result") or my_moves(page) >= TURNS:
            break
        step = page.evaluate("() => window.codecrack.step")
        move(page)
        for _ in range(600):  # the move is answered by a new state before the next one is chosen
            if page.evaluate("() => window.codecrack.step") != step:
                break
            page.wait_for_timeout(25)
    assert my_moves(page) >= TURNS or present(page, "#result")
    assert page.errors == []


def coda_move(page) -> None:
    if present(page, "button.opening"):
        press(page, "button.opening")
    elif present(page, "button.draw"):
        press(page, "button.draw")
    elif present(page, "#coda-stop") and my_moves(page) % 2:
        press(page, "#coda-stop")
    elif present(page, ".coda-row:not(.own) button.tile.pick"):
        press(page, ".coda-row:not(.own) button.tile.pick")
        page.wait_for_selector("#coda-guess")
        assert focused(page, "#coda-guess button.value")  # the keyboard goes on to the values
        page.keyboard.press("Escape")  # Escape puts the guess back ...
        page.wait_for_selector("#coda-guess", state="detached")
        assert focused(page, "button.tile.pick")  # ... and focus returns to the tile
        page.keyboard.press("Enter")
        page.wait_for_selector("#coda-guess")
        page.keyboard.press("ArrowRight")  # harmless: not a grid
        press(page, "#coda-guess button.value")
    elif present(page, ".coda-row.own button"):
        press(page, ".coda-row.own button")


def test_coda_by_keyboard(site):  # noqa: F811
    page = create_by_keyboard(site, "Co")
    play_turns(page, coda_move)
    assert page.inner_text("#announcer")  # the live region tells a screen reader what happened
    wait_for_my_move(page)
    if not present(page, "#result"):  # "All legal actions" opens with Enter and closes with Escape
        press(page, ".all-actions summary")
        page.wait_for_selector(".all-actions[open]")
        page.keyboard.press("Tab")
        page.keyboard.press("Escape")
        assert not present(page, ".all-actions[open]") and focused(page, ".all-actions summary")
    # The cracking sheet: one Tab stop, arrows move, Enter crosses a value out.
    press(page, ".sheet td", "ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector(".sheet td.crossed")
    assert focused(page, ".sheet td.crossed")  # the re-render kept the focus on the cell
    page.close()


def coding_move(page) -> None:
    if present(page, "button.order"):
        press(page, "button.order")
    elif present(page, ".hack-row button.hack"):
        press(page, ".hack-row button.hack")
        page.wait_for_selector("button.give")
        assert focused(page, "button.give")  # on to "Pass the card to ..."
        page.keyboard.press("Enter")
    elif present(page, "button.data.stack"):
        press(page, "button.data.stack")
    elif present(page, "#coding-cannot"):
        press(page, "#coding-cannot")
    elif present(page, "#coding-decode-go"):
        tab_to(page, "select[name=decode-letter]")
        page.keyboard.type("B")
        press(page, "#coding-decode-go")
    else:
        press(page, "button.reveal, #coding-stop, #coding-pass")


def test_the_coding_by_keyboard(site):  # noqa: F811
    page = create_by_keyboard(site, "T")
    play_turns(page, coding_move)
    marks = page.evaluate(
        "() => [...document.querySelectorAll('.hack.green, .hack.red')]"
        ".map((card) => [card.classList.contains('green'), card.querySelector('.verdict')?.textContent.trim()])"
    )
    assert all(mark == ("✓" if green else "✗") for green, mark in marks)  # colour is never the only signal
    page.close()


def alphacode_move(page) -> None:
    if present(page, "#alphacode-random"):
        press(page, "#alphacode-random")
        return
    asked = my_moves(page)
    press(page, "#target-sheet button.ask", "ArrowDown")  # one Tab stop for the whole sheet, then arrows
    assert focused(page, "#target-sheet button.ask")
    page.keyboard.press("Enter")
    for _ in range(600):
        if my_moves(page) > asked:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the question was not asked")


def test_alphabet_code_by_keyboard(site):  # noqa: F811
    page = create_by_keyboard(site, "A")
    play_turns(page, alphacode_move)
    page.close()


def test_the_coda_tutorial_by_keyboard(site):  # noqa: F811
    """The coach's steps by keyboard; after "Next", focus is on the control the coach points at."""
    url, browser = site
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(url)
    press(page, "#learn button.tutorial[data-game=coda]")
    page.wait_for_selector("#coach")
    lessons = set()
    for _ in range(12):
        page.wait_for_selector("#coach-next, button.coach-target")
        lessons.add(page.inner_text("#coach-text"))
        if "guesses" in page.inner_text("#history"):
            break
        if present(page, "#coach-next"):
            press(page, "#coach-next")
            page.wait_for_selector("#coach-next, button.coach-target")
            if present(page, "button.coach-target"):
                assert focused(page, "button.coach-target")  # focus follows the coach
        else:
            press(page, "button.coach-target")
        page.wait_for_timeout(100)
    assert "guesses" in page.inner_text("#history") and len(lessons) >= 3
    page.close()

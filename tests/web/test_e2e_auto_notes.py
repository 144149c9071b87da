"""The cracking sheet keeps the notes (issue 25 §3): "auto-notes", on by default, crosses out what
the public record and the seat's own cards rule out (the belief engine's exact support, without
probabilities), the player still adds marks of their own, and The Coding tutorial's sheet step shows
only D, 5 and 7 left, in English and in Thai."""

from __future__ import annotations

import pytest

from codecrack.games.alphacode.hints import hint as alphacode_hint

from .test_e2e import new_table, site  # noqa: F401  (the module's server and browser)
from .test_e2e_learn import start_tutorial

pytestmark = pytest.mark.e2e

# Each sheet line: its key and the values still open (neither ruled out nor crossed by hand).
OPEN_VALUES = """() => Object.fromEntries([...document.querySelectorAll('.notes .sheet tr[data-line]')].map((tr) =>
  [tr.dataset.line, [...tr.querySelectorAll('td:not(.ruled-out):not(.crossed)')].map((td) => td.dataset.value)]))"""
# The page shows the notes of the step it shows (a hint answered for this very step).
NOTES_SHOWN = (
    "() => window.codecrack && window.codecrack.hint !== null && window.codecrack.hintStep === window.codecrack.step"
)


@pytest.mark.parametrize("locale", ["en-GB", "th-TH"])
def test_the_coding_tutorial_sheet_leaves_only_d_5_and_7(site, locale):
    page = start_tutorial(site, "coding", locale)
    for _ in range(60):  # click what the coach shows until it outlines the sheet
        page.wait_for_selector("#coach-next, .coach-target", timeout=15000)
        if page.query_selector(".notes.coach-target"):
            break
        if page.query_selector("#coach-next"):
            page.click("#coach-next")
        else:
            page.locator(".coach-target").first.click()
        page.wait_for_function("() => !window.codecrack.sending")
    page.wait_for_selector(".notes.coach-target")
    page.wait_for_function(NOTES_SHOWN)
    assert page.is_checked("#auto-notes")
    assert page.evaluate(OPEN_VALUES) == {"1:letter": ["D"], "1:x1": ["5"], "1:x2": ["7"]}
    page.close()


@pytest.mark.parametrize("game", ["coda", "coding"])
def test_auto_notes_cross_out_what_the_seat_rules_out_and_leave_room_for_own_marks(site, game):
    page = new_table(site, game, "random")
    if game == "coda":
        page.click("button.opening[data-black='2']")  # two tiles of each colour
        page.wait_for_selector("button.opening", state="detached")  # my opening taken, not only the AI's
    page.wait_for_selector(".notes .sheet tr[data-line]")
    page.wait_for_function(NOTES_SHOWN)
    assert page.is_checked("#auto-notes")  # on by default
    view = page.evaluate("() => window.codecrack.view")
    lines = page.evaluate(OPEN_VALUES)
    if game == "coda":  # a value I hold is not one of theirs, in its colour
        for line in lines:
            colour = tile_of(view, line)["color"]
            mine = {str(t["value"]) for t in view["rows"][view["seat"]] if t["color"] == colour}
            assert len(mine) == 2 and not mine & set(lines[line])
    else:  # my letter and digits are not theirs
        own = view["own"]
        for line, values in lines.items():
            held = {own["letter"]} if line.endswith("letter") else {str(d) for d in own["digits"]}
            assert values and not held & set(values)
    ruled = page.locator(".notes .sheet td.ruled-out").count()
    assert ruled > 0
    first_open = page.locator(".notes .sheet td:not(.ruled-out)").first
    key = first_open.evaluate("td => [td.closest('tr').dataset.line, td.dataset.value]")
    first_open.click()  # a mark of my own, on a value still open
    mark = f".notes .sheet tr[data-line='{key[0]}'] td.crossed[data-value='{key[1]}']"
    page.wait_for_selector(mark)
    page.uncheck("#auto-notes")
    page.wait_for_function("() => !document.querySelector('.notes .sheet td.ruled-out')")
    assert page.locator(mark).count() == 1  # my own mark stays
    page.check("#auto-notes")
    page.wait_for_function(f"() => document.querySelectorAll('.notes .sheet td.ruled-out').length >= {ruled}")
    page.close()


def tile_of(view, key):
    seat, tile = (int(part) for part in key.split(":"))
    return next(t for t in view["rows"][seat] if t["id"] == tile)


def test_alphacode_auto_notes_show_the_squares_the_answers_settle(site):
    page = new_table(site, "alphacode", "random")
    page.click("#alphacode-random")
    mine = "window.codecrack.view.questions.filter((q) => q.target === window.codecrack.view.target).length"
    for asked in range(3):  # ask three zones
        page.locator("#target-sheet button.ask.zone").first.click()
        page.wait_for_function(f"() => {mine} > {asked} && document.querySelector('#target-sheet button.ask.zone')")
    page.wait_for_function(NOTES_SHOWN)
    view = page.evaluate("() => window.codecrack.view")
    answered = {
        (q["question"]["row"], q["question"]["column"]) for q in view["questions"] if q["target"] == view["target"]
    }
    rows, columns = view["sheet"]["row_labels"], view["sheet"]["column_labels"]
    expected = {
        key: filled
        for key, filled in alphacode_hint(view)["settled"].items()
        if (rows[int(key.split(",")[0])], columns[int(key.split(",")[1])]) not in answered
    }
    shown = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#target-sheet .cell.settled')]
             .map((cell) => [`${cell.dataset.r},${cell.dataset.c}`, cell.classList.contains('yes')]))"""
    )
    assert expected and shown == expected
    page.uncheck("#auto-notes")
    page.wait_for_function("() => !document.querySelector('#target-sheet .cell.settled')")
    page.close()

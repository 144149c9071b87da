"""What a turn says (issue 25 §4.5, §4.6): the clock shows the time left from the start of the turn,
and Coda says you won the round before asking you to place your drawn tile."""

from __future__ import annotations

import random
import re

import pytest

from .test_e2e import coda_moves, move_until, new_table, site  # noqa: F401  (the module's server and browser)

pytestmark = pytest.mark.e2e


def test_the_turn_clock_shows_the_time_left_from_the_start(site):
    page = new_table(site, "coda", "random", {"clock": True, "first": "0"})
    page.click("button.opening >> nth=0")
    page.wait_for_selector("button.draw")
    page.wait_for_selector(".clock .clock-text")
    page.wait_for_function("() => document.querySelector('.clock-text').textContent.trim() !== ''")
    shown = page.inner_text(".clock .clock-text")
    minutes, seconds = map(int, re.search(r"(\d+):(\d\d)", shown).groups())
    assert 60 < minutes * 60 + seconds <= 80, shown  # 60 s of thinking and the 20 s countdown, from the start
    assert "urgent" not in page.get_attribute(".clock", "class")
    page.close()


def test_the_guess_picker_offers_only_the_colour_the_tile_shows(site):
    page = new_table(site, "coda", "random")
    rng = random.Random(8)
    assert move_until(page, rng, coda_moves, "#coda-guess button.colour")
    shown = "black" if "black" in page.get_attribute(".coda-row .tile.selected", "class").split() else "white"
    assert page.locator("#coda-guess button.colour").evaluate_all("bs => bs.map((b) => b.dataset.colour)") == [shown]
    page.close()


def test_last_placed_and_was_face_down_outlines_differ_in_colour_and_line(site):
    page = new_table(site, "coda", "random")
    looks = page.evaluate("""() => Object.fromEntries(["landed", "unveiled"].map((kind) => {
        const tile = document.createElement("span");
        tile.className = `tile black ${kind}`;
        document.querySelector(".tiles").append(tile);
        const style = getComputedStyle(tile);
        return [kind, [style.outlineStyle, style.outlineColor]];
    }))""")
    (landed_line, landed_colour), (unveiled_line, unveiled_colour) = looks["landed"], looks["unveiled"]
    assert landed_line != unveiled_line and landed_colour != unveiled_colour, looks
    page.close()


def test_coda_says_you_won_the_round_before_place_your_drawn_tile(site):
    page = new_table(site, "coda", "random", {"first": "0"})
    page.click("button.opening >> nth=0")
    page.wait_for_selector("button.draw")
    page.evaluate("""() => {
        const table = window.codecrack, view = table.view;  // the moment after the round-winning hit
        view.legal_actions = [{ type: "place", index: 0 }];
        view.eliminated = [1];
        table.render();
    }""")
    prompt = page.inner_text("#coda-place-prompt, .controls .prompt")
    assert prompt.startswith("You won the round!") and "Place your drawn tile" in prompt, prompt
    page.close()


def test_a_double_click_on_a_game_button_is_quiet(site):
    page = new_table(site, "coda", "random", {"first": "0"})
    page.click("button.opening >> nth=0")
    page.wait_for_selector("button.draw")
    page.dblclick("button.draw >> nth=0")
    page.wait_for_selector("#coda-guess-prompt")
    page.wait_for_timeout(500)  # the answer to a second click, if one was sent, is here by now
    assert page.query_selector("#error") is None, page.inner_text("#error")
    page.close()


def test_a_click_that_arrives_after_the_game_moved_on_is_quiet(site):
    """The server's answers are held back, so a second click on "draw" reaches it after the first
    draw was taken: its refusal (the engine's "no draw now: the phase is guess ...") arrives right
    after the new view and is not shown (issue 25 §4.2)."""
    page = new_table(site, "coda", "random", {"first": "0"})
    page.click("button.opening >> nth=0")
    page.wait_for_selector("button.draw")
    held: list = []
    actions: list = []
    routes: dict = {}

    def route(socket):
        server = socket.connect_to_server()
        routes["page"] = socket

        def to_server(message):
            if '"action"' in str(message):
                actions.append(message)
            server.send(message)

        socket.on_message(to_server)
        server.on_message(lambda message: held.append(message) if routes.get("hold") else socket.send(message))

    page.route_web_socket(re.compile(r"/ws/"), route)
    page.reload()  # the table's socket opens again, through the route
    page.wait_for_selector("button.draw")
    routes["hold"] = True
    for _ in range(60):  # the page sends again once its 3 s wait for an answer is over
        if len(actions) >= 2:
            break
        page.click("button.draw >> nth=0")
        page.wait_for_timeout(500)
    assert len(actions) >= 2, actions
    for _ in range(60):  # the refusal of the second draw is held too
        if any('"error"' in str(message) for message in held):
            break
        page.wait_for_timeout(500)
    assert any('"error"' in str(message) for message in held), held
    routes["hold"] = False
    for message in held:
        routes["page"].send(message)
    page.wait_for_selector("#coda-guess-prompt")
    page.wait_for_timeout(500)  # the refusal, sent after the view, is handled by now
    assert page.query_selector("#error") is None, page.inner_text("#error")
    page.close()


def test_an_old_tab_says_the_seat_is_open_elsewhere_and_takes_it_back(site):
    context = site[1].new_context(viewport={"width": 1200, "height": 900})
    old = context.new_page()
    old.goto(site[0])
    old.select_option("#create-form select[name=game]", "coda")
    old.select_option("#create-form select[name=seat-1]", "ai:random")
    old.click("#create-go")
    old.wait_for_selector("button.opening")
    new = context.new_page()  # the same browser: the same seat token
    new.goto(old.url)
    new.wait_for_selector("button.opening")
    old.wait_for_selector("#elsewhere")
    assert "reconnecting" not in old.inner_text(".table-head")
    assert old.locator(".board button.opening").count() == 0  # no live buttons in the old tab
    old.click("#take-back")
    old.wait_for_selector("button.opening")
    new.wait_for_selector("#elsewhere")
    context.close()

"""End to end in headless Chromium: a replay whose pages are cut short by their byte limit still
reaches every step. Late frames are larger than early ones, so a page asked for around a step may
end before it; the page then asks again from that step (a long Alphabet Code game failed so)."""

from __future__ import annotations

import random
import time

import httpx
import pytest

from .browser import site_fixture

pytestmark = pytest.mark.e2e
SMALLEST_PAGE_BYTES = 16 * 1024


site = site_fixture(ai_pace=0.0, allow_seed=True, max_replay_bytes=SMALLEST_PAGE_BYTES)


def finished_table(url: str, game: str, seed: int) -> tuple[str, int]:
    """A table of two random AIs, played to its end; its code and the number of replay frames."""
    plan = {"game": game, "seed": seed, "seats": [{"kind": "ai", "agent": "random"}] * 2}
    code = httpx.post(f"{url}/api/tables", json=plan, timeout=30).raise_for_status().json()["code"]
    deadline = time.monotonic() + 120
    while not httpx.get(f"{url}/api/tables/{code}", timeout=30).json()["over"]:
        assert time.monotonic() < deadline, "the AIs did not finish the game"
        time.sleep(0.2)
    first = httpx.get(f"{url}/api/tables/{code}/replay?start=0", timeout=30).json()
    assert len(first["frames"]) < first["steps"]  # the byte limit cuts the pages short
    return code, first["steps"]


@pytest.mark.parametrize("game", ["alphacode", "coda"])
def test_every_step_of_a_replay_in_short_pages_shows(site, game):
    url, browser = site
    code, steps = finished_table(url, game, seed=11)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/t/{code}")
    page.wait_for_selector("#end-summary")
    page.click("#replay")
    page.click("#replay-bar button[title=End]")
    page.wait_for_selector("#end-summary")
    assert page.inner_text("#replay-step").startswith(f"step {steps - 1} /")
    rng = random.Random(5)
    for step in [0, steps // 2, *rng.sample(range(steps), 6), steps - 1]:
        page.eval_on_selector("#replay-slider", "(el, at) => window.codecrack.replayTo(at)", step)
        page.wait_for_function(
            "at => document.querySelector('#replay-step')?.textContent.startsWith(`step ${at} /`)", arg=step
        )
    assert errors == []

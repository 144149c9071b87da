"""In headless Chromium: a page that follows a whole game through deltas holds exactly the view
the server holds at every step it shows, still renders after many steps, and finds its way back
with a whole view (a resync) when a delta does not fit what it holds."""

from __future__ import annotations

from pathlib import Path

import httpx
import orjson
import pytest

from codecrack.web.config import WebConfig

from .browser import CHROMIUM, chromium, running_server

pytestmark = pytest.mark.e2e


def exact(data) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def test_a_spectators_page_follows_a_whole_game_through_deltas(tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser at {CHROMIUM}: run `make browser` (Debian's chromium)")
    config = WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ai_pace=0.05, disconnect_timeout=30)
    with running_server(config) as url, chromium() as browser:
        made = httpx.post(f"{url}/api/tables", timeout=30, json={
            "game": "coda", "players": 3, "options": {"dashes": True},
            "seats": [{"kind": "ai", "agent": "random"}] * 3}).json()
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
        page.goto(f"{url}/t/{made['code']}")
        page.wait_for_selector(".board")
        seen = []
        while not page.query_selector("#result"):
            seen.append(page.evaluate("[window.codecrack.step, window.codecrack.view]"))
            if len(seen) == 5:  # knock the page's copy off by a step: it must ask for the whole view
                page.evaluate("window.codecrack.views.step -= 1")
            page.wait_for_timeout(150)
        seen.append(page.evaluate("[window.codecrack.step, window.codecrack.view]"))
        history = page.locator("#history li").count()
        frames = httpx.get(f"{url}/api/tables/{made['code']}/replay", timeout=30).json()["frames"]
    steps = [step for step, _ in seen]
    assert steps[-1] == len(frames) - 1 >= 20 and len(set(steps)) >= 10  # a whole game, seen on the way
    for step, view in seen:
        assert exact(view) == exact(frames[step])
    assert history >= 20  # the page still renders the whole history at the end
    assert sum('"resync"' in text for text in sent) == 1
    assert errors == []

"""In headless Chromium: a page that follows a whole game through deltas holds exactly the view
the server holds at every step it shows, still renders after many steps, and finds its way back
with a whole view (a resync) when a delta does not fit what it holds."""

from __future__ import annotations

import json
import random

import httpx
import orjson
import pytest
from websockets.sync.client import connect

from codecrack.protocol.deltas import followed
from codecrack.web.config import WebConfig

from .browser import browsing
from .live_server import GUARD
from .wsclient import replay_frames

pytestmark = pytest.mark.e2e


def exact(data) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def caught_up(page, step: int) -> None:
    """Wait until the page shows ``step`` (polled: the page's CSP forbids Playwright's wait_for_function)."""
    for _ in range(int(GUARD / 0.02)):
        if page.evaluate("window.codecrack.step") >= step:
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"the page did not reach step {step}")


def test_a_spectators_page_follows_a_whole_game_through_deltas(tmp_path):
    """A websocket client plays seat 0 against two bots, each move once the page has caught up,
    so the page is looked at on many steps whatever the machine's speed."""
    config = WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ai_pace=0.0, disconnect_timeout=30)
    rng = random.Random(4)
    with browsing(config) as (url, browser):
        made = httpx.post(
            f"{url}/api/tables",
            timeout=GUARD,
            json={
                "game": "coda",
                "sit": 0,
                "options": {"dashes": True},
                "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}],
            },
        ).json()
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
        page.goto(f"{url}/t/{made['code']}")
        page.wait_for_selector(".board")
        seen = []
        with connect(f"{url.replace('http', 'ws')}/ws/{made['code']}", open_timeout=GUARD) as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            step, view, acted = -1, None, -1
            while view is None or view["result"] is None:
                message = json.loads(ws.recv(timeout=GUARD))
                if message["type"] in ("state", "delta"):
                    step, view = followed(view, step, message)
                if view and view["legal_actions"] and acted != step:
                    caught_up(page, step)
                    seen.append(page.evaluate("[window.codecrack.step, window.codecrack.view]"))
                    if len(seen) == 5:  # knock the page's copy off by a step: it must ask for a whole view
                        page.evaluate("window.codecrack.views.step -= 1")
                    acted = step
                    ws.send(json.dumps({"type": "action", "action": rng.choice(view["legal_actions"])}))
        page.wait_for_selector("#result")
        seen.append(page.evaluate("[window.codecrack.step, window.codecrack.view]"))
        history = page.locator("#history li").count()
        frames = replay_frames(lambda path, headers: httpx.get(url + path, timeout=GUARD), made["code"])
    steps = [step for step, _ in seen]
    assert steps[-1] == len(frames) - 1 >= 20 and len(set(steps)) >= 10  # a whole game, seen on the way
    for step, view in seen:
        assert exact(view) == exact(frames[step])
    assert history >= 20  # the page still renders the whole history at the end
    assert sum('"resync"' in text for text in sent) == 1
    assert errors == []

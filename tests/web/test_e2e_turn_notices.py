"""A turn-based game over a faked clock (issue 28 §4, "Done when"): the server's hour is a few
seconds (``turn_hour``). Bob, who is not connected, gets a "your move" Web Push (at the tests'
local push receiver, decrypted with his browser's keys) and an e-mail (at the tests' SMTP server);
his time runs out, the takeover AI plays his seat, and Ann plays on in Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from codecrack.web.config import WebConfig
from codecrack.web.players.identity import COOKIE

from ..cluster.services import wait_until
from .browser import CHROMIUM, chromium, running_server
from .test_notify_email import BASE, smtp  # noqa: F401  (the tests' SMTP server)
from .test_push import LOCAL, WAIT, PushKeys, Receiver
from .wsclient import HUMAN, RANDOM

pytestmark = pytest.mark.e2e

# Seconds in the server's hour: a move of a one-hour table runs out after HOUR seconds. Ann's page
# answers within it (one click on a loaded page); the test waits through Bob's once.
HOUR = 5.0
MOVE = {"type": "add", "amount": 2}


@pytest.fixture
def site(tmp_path, smtp):  # noqa: F811  (the imported fixture)
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser at {CHROMIUM}: run `make browser` (Debian's chromium)")
    config = WebConfig(
        db_url=f"sqlite:///{tmp_path}/web.db",
        ai_pace=0.0,
        turn_hour=HOUR,
        smtp_host="127.0.0.1",
        smtp_port=smtp[0],
        public_url=BASE,
        push_services=LOCAL,
    )
    with running_server(config) as url, chromium() as browser:
        yield url, browser


class Away(PushKeys):
    """Bob: a guest with no browser page open, who opted in to e-mails and to pushes on one browser."""

    def __init__(self, url: str, endpoint: str) -> None:
        super().__init__()
        self.http = httpx.Client(base_url=url, headers={"origin": url}, timeout=WAIT)
        answer = self.http.post("/api/me/guest", json={"name": "Bob"})
        assert answer.status_code == 200, answer.text
        self.http.headers.update(
            {"x-csrf-token": answer.json()["csrf"], "cookie": f"{COOKIE}={answer.cookies[COOKIE]}"}
        )
        self.http.cookies.clear()
        for method, path, body in (
            ("PUT", "/api/me/notify/email", {"address": "bob@example.org", "consent": True}),
            ("POST", "/api/push/subscriptions", {"endpoint": endpoint, "keys": self.keys()}),
        ):
            answer = self.http.request(method, path, json=body)
            assert answer.status_code == 200, answer.text


def test_an_away_player_gets_a_push_and_an_e_mail_then_the_ai_plays_his_lapsed_move_and_the_game_goes_on(
    site,
    smtp,  # noqa: F811
):
    url, browser = site
    inbox = smtp[1]
    with Receiver() as receiver:
        bob = Away(url, receiver.url("/push/bob"))
        made = bob.http.post(
            "/api/tables",
            json={
                "game": "toy",
                "seats": [RANDOM, HUMAN, HUMAN],
                "sit": 1,
                "options": {"first": 0, "target": 50},
                "turn_hours": 1,
            },
        ).json()
        code = made["code"]  # the AI moves first: then it is Bob's move, and Bob is away

        ann = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB").new_page()
        ann.goto(f"{url}/t/{code}")
        ann.click("#take-seat-go[data-seat='2']")  # the last seat: Bob's table is ready
        bob_seat = ".seat-list li:nth-child(2)"
        ann.wait_for_selector(f"{bob_seat}:has-text('away, AI')", timeout=WAIT * 1000)  # Bob's hour ran out
        ann.click(f"button.action[data-action='{json.dumps(MOVE, separators=(',', ':'))}']")  # Ann's move
        table: dict = {}

        def played_on() -> bool:  # after Ann's move, the AI's and Bob's (the takeover AI's)
            table.update(bob.http.get(f"/api/tables/{code}").json())
            return table["step"] >= 5

        wait_until(played_on, "the game went on after Ann's move")

        mails = {message["Subject"]: (to, message) for to, message in (inbox.next(), inbox.next())}
        pushes = {payload["title"]: payload for payload in (bob.opened(receiver.next()["body"]) for _ in range(2))}

    assert (
        set(mails) == set(pushes) == {f"codecrack: your move at table {code}", f"codecrack: your table {code} is ready"}
    )
    to, mail = mails[f"codecrack: your move at table {code}"]
    assert to == ["bob@example.org"]
    text = mail.get_content()
    assert f"It is your move in toy at table {code}." in text and f"Open the table: {BASE}/t/{code}" in text
    assert pushes[f"codecrack: your move at table {code}"] == {
        "title": f"codecrack: your move at table {code}",
        "body": f"It is your move in toy at table {code}.",
        "url": f"/t/{code}",
        "stop": "Stop these notifications",
    }
    assert made["token"] not in mail.as_string() and made["token"] not in str(pushes)
    seats = table["seats"]
    assert seats[1]["bot"] == "random" and not seats[2]["bot"]  # Bob's seat is the AI's; Ann played hers
    ann.context.close()
    bob.http.close()

"""Notification e-mails, received by a real SMTP server (aiosmtpd) the test starts: opt-in, the
address confirmed by a link before anything else is sent to it, what they say (public facts only),
and the one-click unsubscribe (RFC 8058)."""

import queue
import re
from datetime import datetime
from email import message_from_bytes, policy
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import select

from codecrack.web.app import create_app
from codecrack.web.store import notify_emails

from ..services import free_port
from .conftest import fast_config
from .test_quick_match import Guest
from .wsclient import HUMAN, seated

WAIT = 30.0  # seconds a test waits for an e-mail at most (a hang guard, no timing claim)
BASE = "https://cc.example"


class Inbox:
    """Every message the SMTP server received, in order."""

    def __init__(self) -> None:
        self.received: queue.Queue = queue.Queue()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        self.received.put((envelope.rcpt_tos, message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"

    def next(self):
        return self.received.get(timeout=WAIT)


@pytest.fixture
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), ready_timeout=WAIT)
    controller.start()
    try:
        yield controller.port, inbox
    finally:
        controller.stop()


@pytest.fixture
def server(tmp_path, smtp):
    port, _ = smtp
    config = fast_config(tmp_path, smtp_host="127.0.0.1", smtp_port=port, public_url=BASE, smtp_from="cc@cc.example")
    with TestClient(create_app(config)) as client:
        yield client


def ask(guest: Guest, address: str, language: str = "en") -> None:
    """Opt in: the address is stored, and sent its confirmation link."""
    answer = guest.client.put(
        "/api/me/notify/email",
        json={"address": address, "consent": True},
        headers={**guest.headers, "accept-language": language},
    )
    assert answer.status_code == 200, answer.text


def confirmation_link(message) -> str:
    """The path and query of the confirmation e-mail's link."""
    link = urlsplit(re.search(rf"{BASE}/api/notify/confirm\?token=\S+", message.get_content())[0])
    return f"{link.path}?{link.query}"


def opt_in(guest: Guest, inbox: Inbox, address: str, language: str = "en") -> None:
    """Opt in and follow the confirmation e-mail's link (no cookie needed: the token is its authority)."""
    ask(guest, address, language)
    to, message = inbox.next()
    assert to == [address], message["Subject"]
    assert guest.client.post(confirmation_link(message)).status_code == 200


def notify_email(guest: Guest):
    return guest.client.get("/api/me/notify", headers=guest.headers).json()["email"]


def test_a_friend_taking_the_last_seat_and_then_my_move_send_e_mails_with_one_click_unsubscribe(server, smtp):
    _, inbox = smtp
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    opt_in(ann, inbox, "ann@example.org")
    opt_in(bob, inbox, "bob@example.org")
    made = server.post(
        "/api/tables",
        json={"game": "toy", "seats": [HUMAN, HUMAN], "sit": 0, "options": {"first": 0}, "turn_hours": 24},
        headers=ann.headers,
    ).json()
    code, ann_token = made["code"], made["token"]
    bob_token = server.post(f"/api/tables/{code}/join", json={"seat": 1}, headers=bob.headers).json()["token"]

    to, ready = inbox.next()
    assert to == ["ann@example.org"] and ready["Subject"] == f"codecrack: your table {code} is ready"

    with seated(server, code, ann_token) as seat:
        seat.act({"type": "add", "amount": 1})
        to, move = inbox.next()
    assert to == ["bob@example.org"] and move["Subject"] == f"codecrack: your move at table {code}"
    deadline = server.get(f"/api/tables/{code}").json()["turns"]["deadline"]
    unsubscribe = move["List-Unsubscribe"].strip("<>")
    assert move["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe.startswith(f"{BASE}/api/notify/unsubscribe?token=")
    # public facts only: exactly these lines (no view, no hidden value, no seat token)
    assert move.get_content().replace("\r\n", "\n") == (
        f"It is your move in toy at table {code}.\n"
        f"Your time for this move runs out at {deadline} (UTC).\n"
        f"Open the table: {BASE}/t/{code}\n\n--\n"
        f"You get these e-mails because you asked for them on codecrack. Stop them with one click: {unsubscribe}\n"
    )
    assert ann_token not in move.as_string() and bob_token not in move.as_string()

    # one click, as a mail client does it: no cookie, no CSRF token, just the signed link
    link = urlsplit(unsubscribe)
    server.cookies.clear()
    assert server.get(f"{link.path}?{link.query}").status_code == 200  # the page with its button changes nothing
    assert notify_email(bob) == "bob@example.org"
    assert server.post(f"{link.path}?{link.query}").status_code == 200
    assert notify_email(bob) is None and notify_email(ann) == "ann@example.org"


@pytest.mark.parametrize("token", ["1.00", "x", "999.abc", "", "1." + "0" * 64])
def test_a_forged_unsubscribe_token_changes_nothing(server, smtp, token):
    ann = Guest(server, "Ann")
    opt_in(ann, smtp[1], "ann@example.org")
    server.cookies.clear()
    assert server.post("/api/notify/unsubscribe", params={"token": token}).status_code in (400, 422)
    assert notify_email(ann) == "ann@example.org"


def test_e_mails_come_in_the_language_the_player_opted_in_with(server, smtp):
    _, inbox = smtp
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    opt_in(ann, inbox, "ann@example.org", "th")
    code = server.post(
        "/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN], "sit": 0}, headers=ann.headers
    ).json()["code"]
    server.post(f"/api/tables/{code}/join", json={"seat": 1}, headers=bob.headers)
    _, ready = inbox.next()
    assert ready["Subject"] == f"codecrack: โต๊ะ {code} ของคุณพร้อมแล้ว"


@pytest.mark.parametrize(
    "body",
    [
        {"address": "ann@example.org"},  # no consent
        {"address": "ann@example.org", "consent": False},
        {"address": "not an address", "consent": True},
        {"address": "a@b\r\nBcc: x@y", "consent": True},  # header injection
        {"address": "a" * 300 + "@example.org", "consent": True},
    ],
)
def test_opting_in_needs_consent_and_an_address(server, body):
    ann = Guest(server, "Ann")
    answer = server.put("/api/me/notify/email", json=body, headers=ann.headers)
    assert answer.status_code in (400, 422), answer.text
    assert notify_email(ann) is None


def test_without_a_session_nobody_opts_in(server):
    server.cookies.clear()
    answer = server.put("/api/me/notify/email", json={"address": "a@example.org", "consent": True})
    assert answer.status_code == 401


def test_the_export_lists_the_address_and_when_it_was_confirmed_and_leaving_deletes_it(server, smtp):
    _, inbox = smtp
    ann = Guest(server, "Ann")
    ask(ann, "ann@example.org")
    exported = server.get("/api/me/export", headers=ann.headers).json()["notifications"]
    assert [(entry["email"], entry["language"], entry["confirmed_at"]) for entry in exported] == [
        ("ann@example.org", "en", None)
    ]
    _, confirmation = inbox.next()
    assert server.post(confirmation_link(confirmation)).status_code == 200
    [entry] = server.get("/api/me/export", headers=ann.headers).json()["notifications"]
    assert datetime.fromisoformat(entry["confirmed_at"]) >= datetime.fromisoformat(entry["consented_at"])
    assert server.request("DELETE", "/api/me", json={}, headers=ann.headers).status_code == 200
    with server.app.state.hub.engine.connect() as db:
        assert db.execute(select(notify_emails)).all() == []


def test_an_address_gets_nothing_but_its_confirmation_until_its_link_is_followed(server, smtp):
    _, inbox = smtp
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    ask(ann, "ann@example.org", "th")
    to, confirmation = inbox.next()
    assert to == ["ann@example.org"] and confirmation["Subject"] == "codecrack: ยืนยันที่อยู่อีเมลของคุณ"
    assert server.get("/api/me/notify", headers=ann.headers).json() == {"email": "ann@example.org", "confirmed": False}
    opt_in(bob, inbox, "bob@example.org")
    made = server.post(
        "/api/tables",
        json={"game": "toy", "seats": [HUMAN, HUMAN], "sit": 0, "options": {"first": 1, "target": 1}},
        headers=bob.headers,
    ).json()
    code = made["code"]
    ann_token = server.post(f"/api/tables/{code}/join", json={"seat": 1}, headers=ann.headers).json()["token"]
    to, ready = inbox.next()
    assert to == ["bob@example.org"] and code in ready["Subject"]
    with seated(server, code, ann_token) as seat:
        seat.act({"type": "add", "amount": 1})  # the target: the game is over, for Ann and Bob at once
        to, ended = inbox.next()
    assert to == ["bob@example.org"] and ended["Subject"] == f"codecrack: the game at table {code} is over"

    link = confirmation_link(confirmation)
    server.cookies.clear()
    assert server.get(link).status_code == 200  # the page with its button changes nothing
    assert server.get("/api/me/notify", headers=ann.headers).json()["confirmed"] is False
    assert server.post(link).status_code == 200
    assert server.get("/api/me/notify", headers=ann.headers).json() == {"email": "ann@example.org", "confirmed": True}
    ask(ann, "ann@other.example")  # a new address waits for its own link
    _, again = inbox.next()
    assert server.post(link).status_code == 400  # the old address's link confirms nothing
    assert server.post(confirmation_link(again).replace("token=", "token=9")).status_code == 400
    assert server.get("/api/me/notify", headers=ann.headers).json()["confirmed"] is False

"""Web Push (issue 28 §4): the payload encryption against RFC 8291's appendix A, a real push from
pywebpush to a local receiver that decrypts it with the subscription's private key, the VAPID key
drawn once and kept, and the subscription API's refusals."""

from __future__ import annotations

import base64
import json
import queue
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
import pytest
import pywebpush
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from codecrack.web.app import create_app
from codecrack.web.notify.push import SUBSCRIPTIONS_PER_PLAYER, b64url, unb64url
from codecrack.web.store import push_subscriptions, server_secrets

from .conftest import fast_config
from .test_quick_match import Guest
from .wsclient import HUMAN, seated

SITE = "http://testserver"
LOCAL = r"http://127\.0\.0\.1:\d+/"  # the local receiver stands for a push service
WAIT = 30.0  # seconds a test waits for a push at most (a hang guard, no timing claim)

# RFC 8291, appendix A
PLAINTEXT = b"When I grow up, I want to be a watermelon"
AS_PRIVATE = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
UA_PRIVATE = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
UA_PUBLIC = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
SALT = "DGv6ra1nlYgDCS1FRnbzlw"
AUTH = "BTBZMqHH6r4Tts7J_aSIgg"
BODY = (
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_y"
    "l95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
)


def private_key(text: str) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(int.from_bytes(unb64url(text), "big"), ec.SECP256R1())


def test_pywebpush_encrypts_rfc_8291s_example_to_its_bytes(monkeypatch):
    """With the example's ephemeral key and salt (pywebpush draws both at random), pywebpush's
    encoding gives appendix A's message byte for byte."""
    monkeypatch.setattr(pywebpush.ec, "generate_private_key", lambda *args: private_key(AS_PRIVATE))
    monkeypatch.setattr(http_ece.os, "urandom", lambda size: unb64url(SALT))
    subscription = {"endpoint": "https://push.invalid/", "keys": {"p256dh": UA_PUBLIC, "auth": AUTH}}
    assert pywebpush.WebPusher(subscription).encode(PLAINTEXT)["body"] == unb64url(BODY)


def test_the_subscriptions_private_key_decrypts_rfc_8291s_example():
    opened = http_ece.decrypt(
        unb64url(BODY), private_key=private_key(UA_PRIVATE), auth_secret=unb64url(AUTH), version="aes128gcm"
    )
    assert opened == PLAINTEXT


class Receiver:
    """A push service on loopback: it keeps every request and answers ``status``."""

    def __init__(self, status: int = 201) -> None:
        self.requests: list[dict] = []
        self.received: queue.Queue = queue.Queue()  # the same requests, to wait for
        self.status = status
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                request = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
                receiver.requests.append(request)
                receiver.received.put(request)
                self.send_response(receiver.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.server.timeout = 10
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def next(self) -> dict:
        return self.received.get(timeout=WAIT)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


class PushKeys:
    """A push subscription's keys, which one browser alone holds: only it opens what is pushed to it."""

    def __init__(self) -> None:
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = b"0123456789abcdef"

    def keys(self) -> dict[str, str]:
        public = self.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"p256dh": b64url(public), "auth": b64url(self.auth)}

    def opened(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth, version="aes128gcm"))


class Browser(Guest, PushKeys):
    """A guest's browser: its session, and its push subscription's keys."""

    def __init__(self, client: TestClient, name: str = "Ann") -> None:
        Guest.__init__(self, client, name)
        PushKeys.__init__(self)

    def subscribe(self, endpoint: str, changes: dict | None = None, language: str = "en"):
        body = {"endpoint": endpoint, "keys": self.keys(), **(changes or {})}
        headers = {**self.headers, "accept-language": language}
        return self.client.post("/api/push/subscriptions", json=body, headers=headers)


@pytest.fixture
def push_client(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, push_services=LOCAL, push_contact="mailto:ops@example.org"))) as c:
        yield c


def subscribed(client: TestClient, endpoint: str) -> list[int]:
    with client.app.state.hub.engine.connect() as db:
        query = select(push_subscriptions.c.player_id).where(push_subscriptions.c.endpoint == endpoint)
        return list(db.execute(query).scalars())


def verify_vapid(authorization: str, key: str, audience: str) -> dict:
    """The VAPID header's JWT (RFC 8292): signed by ``key``, for ``audience``; returns its claims."""
    scheme, _, fields = authorization.partition(" ")
    parts = dict(field.strip().split("=", 1) for field in fields.split(","))
    assert scheme == "vapid" and parts["k"] == key
    header, claims, signature = parts["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    decoded = json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))
    assert decoded["aud"] == audience
    return decoded


MESSAGE = {"title": "codecrack", "body": "Your move at table ABCDE", "url": "/t/ABCDE", "stop": "Stop"}


def test_a_push_reaches_the_local_receiver_signed_by_the_kept_vapid_key_and_only_that_browser_can_read_it(
    push_client,
):
    ann = Browser(push_client)
    with Receiver() as receiver:
        endpoint = receiver.url("/push/ann-phone")
        assert ann.subscribe(endpoint).json() == {"subscribed": True}
        assert push_client.portal.call(push_client.app.state.push.notify, ann.id, MESSAGE) == 1
    (sent,) = receiver.requests
    assert sent["path"] == "/push/ann-phone"
    assert sent["headers"]["content-encoding"] == "aes128gcm"
    assert int(sent["headers"]["ttl"]) == push_client.app.state.hub.config.push_ttl
    key = push_client.get("/api/push/key").json()["key"]
    claims = verify_vapid(sent["headers"]["authorization"], key, receiver.url("").rstrip("/"))
    assert claims["sub"] == "mailto:ops@example.org"
    assert ann.opened(sent["body"]) == MESSAGE
    stranger = Browser(push_client, "Bob")
    with pytest.raises(http_ece.ECEException):
        stranger.opened(sent["body"])


def test_the_vapid_key_is_drawn_at_the_first_start_and_kept_in_the_database(tmp_path):
    config = fast_config(tmp_path, push_services=LOCAL)
    with TestClient(create_app(config)) as client:
        first = client.get("/api/push/key").json()["key"]
        with client.app.state.hub.engine.connect() as db:
            stored = db.execute(select(server_secrets.c.name)).scalars().all()
    assert "vapid_private_key" in stored
    assert len(unb64url(first)) == 65 and unb64url(first)[0] == 4
    with TestClient(create_app(config)) as client:
        assert client.get("/api/push/key").json()["key"] == first
    with TestClient(create_app(fast_config(tmp_path / "other"))) as client:
        assert client.get("/api/push/key").json()["key"] != first


def test_a_subscription_the_push_service_forgot_is_deleted(push_client):
    ann = Browser(push_client)
    with Receiver(status=410) as receiver:
        endpoint = receiver.url("/push/gone")
        ann.subscribe(endpoint)
        assert push_client.portal.call(push_client.app.state.push.notify, ann.id, MESSAGE) == 0
    assert len(receiver.requests) == 1 and subscribed(push_client, endpoint) == []


def test_opting_out_stops_the_pushes_and_touches_only_the_players_own_browser(push_client):
    ann, bob = Browser(push_client, "Ann"), Browser(push_client, "Bob")
    with Receiver() as receiver:
        ann.subscribe(receiver.url("/push/ann"))
        answer = push_client.request(
            "DELETE", "/api/push/subscriptions", json={"endpoint": receiver.url("/push/ann")}, headers=bob.headers
        )
        assert answer.status_code == 200 and subscribed(push_client, receiver.url("/push/ann")) == [ann.id]
        answer = push_client.request(
            "DELETE", "/api/push/subscriptions", json={"endpoint": receiver.url("/push/ann")}, headers=ann.headers
        )
        assert answer.json() == {"subscribed": False}
        assert push_client.portal.call(push_client.app.state.push.notify, ann.id, MESSAGE) == 0
    assert receiver.requests == []


def test_a_browser_moves_to_the_player_who_subscribes_it_last(push_client):
    ann, bob = Browser(push_client, "Ann"), Browser(push_client, "Bob")
    endpoint = "http://127.0.0.1:9/push/shared"
    ann.subscribe(endpoint)
    bob.subscribe(endpoint)
    assert subscribed(push_client, endpoint) == [bob.id]


def test_a_player_keeps_at_most_so_many_browsers_the_oldest_goes(push_client):
    ann = Browser(push_client)
    endpoints = [f"http://127.0.0.1:9/push/{n}" for n in range(SUBSCRIPTIONS_PER_PLAYER + 1)]
    for endpoint in endpoints:
        assert ann.subscribe(endpoint).status_code == 200
    assert subscribed(push_client, endpoints[0]) == []
    assert all(subscribed(push_client, endpoint) == [ann.id] for endpoint in endpoints[1:])


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "http://10.0.0.1/push/x"},  # not a push service: the server would post anywhere
        {"endpoint": "http://127.0.0.1.evil.example/push"},
        {"endpoint": "http://127.0.0.1:9/" + "x" * 1000},
        {"keys": {"p256dh": b64url(b"\x04" + bytes(64)), "auth": b64url(bytes(16))}},  # not on the curve
        {"keys": {"p256dh": "not base64!", "auth": b64url(bytes(16))}},
        {"keys": {"p256dh": UA_PUBLIC, "auth": b64url(bytes(15))}},
        {"keys": {"p256dh": UA_PUBLIC}},
        {"keys": {"p256dh": UA_PUBLIC, "auth": AUTH, "extra": "x"}},
        {"extra": 1},
        {"endpoint": 5},
    ],
)
def test_a_malformed_subscription_is_refused_400_and_nothing_is_kept(push_client, change):
    ann = Browser(push_client)
    answer = ann.subscribe("http://127.0.0.1:9/push/ok", change)
    assert answer.status_code == 400, answer.text
    assert isinstance(answer.json()["detail"], str)
    with push_client.app.state.hub.engine.connect() as db:
        assert db.execute(select(func.count()).select_from(push_subscriptions)).scalar_one() == 0


def test_subscribing_needs_a_session_and_the_csrf_token(push_client):
    ann = Browser(push_client)
    body = {"endpoint": "http://127.0.0.1:9/push/x", "keys": ann.keys()}
    no_session = {"origin": SITE}
    assert push_client.post("/api/push/subscriptions", json=body, headers=no_session).status_code == 401
    no_token = {key: value for key, value in ann.headers.items() if key != "x-csrf-token"}
    assert push_client.post("/api/push/subscriptions", json=body, headers=no_token).status_code == 403
    other_site = {**ann.headers, "origin": "https://evil.example"}
    assert push_client.post("/api/push/subscriptions", json=body, headers=other_site).status_code == 403
    assert subscribed(push_client, body["endpoint"]) == []


def test_by_default_only_the_known_push_services_endpoints_are_taken(client):
    ann = Browser(client)
    assert ann.subscribe("https://fcm.googleapis.com/fcm/send/abc").status_code == 200
    assert ann.subscribe("https://updates.push.services.mozilla.com/wpush/v2/abc").status_code == 200
    assert ann.subscribe("https://fcm.googleapis.com.evil.example/").status_code == 400
    assert ann.subscribe("http://127.0.0.1:9/push").status_code == 400


def test_the_notifier_pushes_my_move_and_the_end_in_my_language_with_public_facts_only(push_client):
    """Through the Notifier port: a turn-based move that becomes Bob's while he is away, then the
    end. Each push says only the kind, the table and the game, in the language Bob subscribed in."""
    ann, bob = Browser(push_client, "Ann"), Browser(push_client, "Bob")
    with Receiver() as receiver:
        assert bob.subscribe(receiver.url("/push/bob"), language="th").status_code == 200
        made = push_client.post(
            "/api/tables",
            json={
                "game": "toy",
                "seats": [HUMAN, HUMAN],
                "sit": 0,
                "options": {"first": 0, "target": 2},
                "turn_hours": 24,
            },
            headers=ann.headers,
        ).json()
        code, ann_token = made["code"], made["token"]
        bob_token = push_client.post(f"/api/tables/{code}/join", json={"seat": 1}, headers=bob.headers).json()["token"]
        with seated(push_client, code, ann_token) as seat:
            seat.act({"type": "add", "amount": 1})
            move = receiver.next()  # Bob is away: his move
        with seated(push_client, code, bob_token) as seat:
            seat.act({"type": "add", "amount": 1})  # the target: the game is over
            end = receiver.next()
    shown = [bob.opened(move["body"]), bob.opened(end["body"])]
    assert shown[0] == {
        "title": f"codecrack: ถึงตาคุณที่โต๊ะ {code}",
        "body": shown[0]["body"],
        "url": f"/t/{code}",
        "stop": shown[0]["stop"],
    }
    assert code in shown[0]["body"] and shown[0]["stop"] != "Stop these notifications"  # Thai
    assert shown[1]["url"] == f"/t/{code}" and code in shown[1]["title"]
    for payload in shown:
        assert set(payload) == {"title", "body", "url", "stop"}
        assert ann_token not in json.dumps(payload) and bob_token not in json.dumps(payload)


def test_the_notifications_stop_button_unsubscribes_that_browser_without_a_session(push_client):
    ann = Browser(push_client)
    endpoint = "http://127.0.0.1:9/push/ann"
    ann.subscribe(endpoint)
    push_client.cookies.clear()
    answer = push_client.post("/api/push/unsubscribe", json={"endpoint": endpoint}, headers={"origin": SITE})
    assert answer.status_code == 200 and subscribed(push_client, endpoint) == []

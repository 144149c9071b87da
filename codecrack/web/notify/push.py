"""Web Push: a notification to a player's browsers while no page of codecrack is open.

A browser that opts in gives a *subscription*: the push service's ``endpoint`` URL and its keys
(``p256dh``, a P-256 public key, and ``auth``, a 16-byte secret). ``pywebpush`` encrypts each
message for those keys (RFC 8291, ``aes128gcm``) and signs the request with the server's VAPID
key (RFC 8292), which is drawn at the first start and kept in the database
(``server_secrets``). A message holds a title, a body and a path on this site: never a seat
token, a hidden value or anything a spectator could not see. Endpoints must belong to a known
push service (``CODECRACK_PUSH_SERVICES``), so a client cannot make the server post elsewhere.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
from collections.abc import Mapping
from typing import Any, TypedDict

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from ...i18n import N_, _, translate
from ..store import kept_secret, now, push_subscriptions
from . import Notice
from .email import BODIES, SUBJECTS

VAPID_SECRET = "vapid_private_key"
SUBSCRIPTIONS_PER_PLAYER = 10  # a player's browsers; the oldest is dropped past it
STOP = N_("Stop these notifications")
GONE = {404, 410}  # the push service forgot the subscription: it is deleted here too
log = logging.getLogger("codecrack.web.push")


class PushMessage(TypedDict):
    """All a push carries: what to show and where to go (a path on this site)."""

    title: str
    body: str
    url: str
    stop: str  # the label of the notification's one-click unsubscribe


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """``text`` decoded as unpadded base64url; ValueError if it is not."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def draw_vapid_secret() -> str:
    """A new VAPID private key: its 32-byte scalar, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def application_server_key(vapid: Vapid) -> str:
    """The VAPID public key as a browser's ``pushManager.subscribe`` takes it."""
    return b64url(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def subscription_problem(endpoint: str, p256dh: str, auth: str, services: re.Pattern[str]) -> str | None:
    """What is wrong with a subscription a client sent, or ``None``."""
    if not services.match(endpoint):
        return _("endpoint: not a known push service")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(p256dh))
    except ValueError:
        return _("keys.p256dh: not a P-256 public key")
    try:
        if len(unb64url(auth)) == 16:
            return None
    except ValueError:
        pass
    return _("keys.auth: not 16 bytes in base64url")


def subscribe(db: Connection, player_id: int, endpoint: str, p256dh: str, auth: str, language: str) -> None:
    """Keep the subscription for ``player_id`` (a browser moves to the player signed in there)."""
    db.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))
    kept = select(push_subscriptions.c.id).where(push_subscriptions.c.player_id == player_id)
    held = db.execute(select(func.count()).select_from(kept.subquery())).scalar_one()
    if held >= SUBSCRIPTIONS_PER_PLAYER:
        oldest = kept.order_by(push_subscriptions.c.id).limit(held - SUBSCRIPTIONS_PER_PLAYER + 1)
        db.execute(delete(push_subscriptions).where(push_subscriptions.c.id.in_(oldest.scalar_subquery())))
    row = {"player_id": player_id, "endpoint": endpoint, "p256dh": p256dh, "auth": auth, "language": language}
    row["created_at"] = now()
    db.execute(insert(push_subscriptions).values(**row))


def unsubscribe(db: Connection, player_id: int, endpoint: str) -> None:
    db.execute(
        delete(push_subscriptions).where(
            push_subscriptions.c.player_id == player_id, push_subscriptions.c.endpoint == endpoint
        )
    )


def subscriptions_of(db: Connection, player_id: int) -> list[Mapping[str, Any]]:
    query = select(push_subscriptions).where(push_subscriptions.c.player_id == player_id)
    return [dict(row) for row in db.execute(query).mappings()]


def forget_endpoint(db: Connection, endpoint: str) -> bool:
    """Delete the subscription of ``endpoint`` (whoever holds it: knowing it is being that browser)."""
    return db.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint)).rowcount > 0


def message_of(notice: Notice, language: str) -> PushMessage:
    """A notice as a push, in ``language``: the e-mail's subject and first line, and the table's path."""
    facts = {"code": notice.code, "game": notice.game}
    title = translate(SUBJECTS[notice.kind], language).format(**facts)
    body = translate(BODIES[notice.kind], language).format(**facts)
    return {"title": title, "body": body, "url": f"/t/{notice.code}", "stop": translate(STOP, language)}


class WebPush:
    """The push channel of a server, plugged into its :class:`~codecrack.web.notify.Notifier`:
    its VAPID key (:meth:`start` reads or draws it), :meth:`send` (the notices, each in the
    language its browser subscribed in) and :meth:`notify` (one message to a player's browsers)."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.services = re.compile(hub.config.push_services)
        self.vapid: Vapid | None = None

    async def start(self) -> None:
        secret = await asyncio.to_thread(kept_secret, self.hub.store.engine, VAPID_SECRET, draw_vapid_secret)
        self.vapid = Vapid.from_raw(secret.encode())

    @property
    def key(self) -> str:
        assert self.vapid is not None, "WebPush.start() first"
        return application_server_key(self.vapid)

    async def send(self, notices: list[Notice]) -> None:
        if self.vapid is None:  # not started (an app without its lifespan)
            return
        for notice in notices:
            for row in await asyncio.to_thread(self.hub.store.read, subscriptions_of, notice.player_id):
                await self.push(row, message_of(notice, row["language"]))

    async def notify(self, player_id: int, message: PushMessage) -> int:
        """Send ``message`` to each of the player's subscriptions; returns how many took it."""
        rows = await asyncio.to_thread(self.hub.store.read, subscriptions_of, player_id)
        return sum([await self.push(row, message) for row in rows])

    async def push(self, row: Mapping[str, Any], message: PushMessage) -> bool:
        """Post to one subscription; one the push service has forgotten is deleted, any other
        failure logged. True if the push service took it."""
        status = await asyncio.to_thread(self.post, row, message)
        if status in GONE:
            await self.hub.writer.write(forget_endpoint, row["endpoint"])
        elif status is not None:
            log.warning("a push to player %s failed: HTTP %s", row["player_id"], status)
        return status is None

    def post(self, row: Mapping[str, Any], message: PushMessage) -> int | None:
        """Post ``message`` to one subscription: ``None`` if taken, else the HTTP status (0: no answer)."""
        assert self.vapid is not None, "WebPush.start() first"
        config = self.hub.config
        subscription = {"endpoint": row["endpoint"], "keys": {"p256dh": row["p256dh"], "auth": row["auth"]}}
        try:
            webpush(
                subscription,
                data=json.dumps(message),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": config.push_contact},
                ttl=config.push_ttl,
                timeout=config.push_timeout,
            )
        except WebPushException as error:
            return error.response.status_code if error.response is not None else 0
        except OSError:  # requests' connection errors and timeouts
            return 0
        return None

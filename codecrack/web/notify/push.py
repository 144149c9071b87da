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

from ...i18n import _
from ..store import kept_secret, now, push_subscriptions

VAPID_SECRET = "vapid_private_key"
SUBSCRIPTIONS_PER_PLAYER = 10  # a player's browsers; the oldest is dropped past it
GONE = {404, 410}  # the push service forgot the subscription: it is deleted here too
log = logging.getLogger("codecrack.web.push")


class PushMessage(TypedDict):
    """All a push carries: what to show and where to go (a path on this site)."""

    title: str
    body: str
    url: str


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


def subscribe(db: Connection, player_id: int, endpoint: str, p256dh: str, auth: str) -> None:
    """Keep the subscription for ``player_id`` (a browser moves to the player signed in there)."""
    db.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))
    kept = select(push_subscriptions.c.id).where(push_subscriptions.c.player_id == player_id)
    held = db.execute(select(func.count()).select_from(kept.subquery())).scalar_one()
    if held >= SUBSCRIPTIONS_PER_PLAYER:
        oldest = kept.order_by(push_subscriptions.c.id).limit(held - SUBSCRIPTIONS_PER_PLAYER + 1)
        db.execute(delete(push_subscriptions).where(push_subscriptions.c.id.in_(oldest.scalar_subquery())))
    row = {"player_id": player_id, "endpoint": endpoint, "p256dh": p256dh, "auth": auth, "created_at": now()}
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


def forget_endpoint(db: Connection, endpoint: str) -> None:
    db.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))


class WebPush:
    """The push channel of a server: its VAPID key (:meth:`start` reads or draws it) and
    :meth:`notify`, which sends one message to every browser a player subscribed."""

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

    async def notify(self, player_id: int, message: PushMessage) -> int:
        """Send ``message`` to each of the player's subscriptions; returns how many took it. One
        the push service has forgotten is deleted; any other failure is logged."""
        sent = 0
        for row in await asyncio.to_thread(self.hub.store.read, subscriptions_of, player_id):
            status = await asyncio.to_thread(self.send, row, message)
            if status in GONE:
                await self.hub.writer.write(forget_endpoint, row["endpoint"])
            elif status is not None:
                log.warning("a push to player %s failed: HTTP %s", player_id, status)
            else:
                sent += 1
        return sent

    def send(self, row: Mapping[str, Any], message: PushMessage) -> int | None:
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

"""The e-mail channel of the :class:`~codecrack.web.notify.Notifier`: a player opts in with an
address (stored with the moment of their consent and their page's language), and every e-mail
carries a one-click unsubscribe link (RFC 8058: ``List-Unsubscribe`` and ``List-Unsubscribe-Post``)
signed with a key the server draws once and keeps in the database (``server_secrets``). Sent over SMTP (the ``smtp_*``
settings), in a thread; nothing is sent without ``smtp_host``."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import smtplib
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection, Engine

from ...i18n import N_, translate
from ..store import Store, kept_secret, notify_emails, now
from . import Notice

if TYPE_CHECKING:
    from ..config import WebConfig

log = logging.getLogger("codecrack.web")

UNSUBSCRIBE_PATH = "/api/notify/unsubscribe"
UNSUBSCRIBE_SECRET = "unsubscribe"  # the name of the links' signing key among the server's secrets
SUBJECTS = {
    "your_move": N_("codecrack: your move at table {code}"),
    "ended": N_("codecrack: the game at table {code} is over"),
    "ready": N_("codecrack: your table {code} is ready"),
}
BODIES = {
    "your_move": N_("It is your move in {game} at table {code}."),
    "ended": N_("The {game} game at table {code} is over."),
    "ready": N_("Every seat at your {game} table {code} is taken: the game can start."),
}
DEADLINE = N_("Your time for this move runs out at {deadline} (UTC).")
OPEN = N_("Open the table: {link}")
FOOTER = N_("You get these e-mails because you asked for them on codecrack. Stop them with one click: {link}")


# -- storage ------------------------------------------------------------------------------------
def subscribe(db: Connection, player_id: int, address: str, language: str) -> None:
    """Store (or replace) the player's address, consented now."""
    db.execute(delete(notify_emails).where(notify_emails.c.player_id == player_id))
    db.execute(
        insert(notify_emails).values(player_id=player_id, address=address, language=language, consented_at=now())
    )


def unsubscribe(db: Connection, player_id: int) -> bool:
    return db.execute(delete(notify_emails).where(notify_emails.c.player_id == player_id)).rowcount > 0


def subscription(db: Connection, player_id: int) -> dict[str, Any] | None:
    found = db.execute(select(notify_emails).where(notify_emails.c.player_id == player_id)).mappings().first()
    return dict(found) if found else None


def subscribers(db: Connection, player_ids: list[int]) -> list[dict[str, Any]]:
    query = select(notify_emails).where(notify_emails.c.player_id.in_(player_ids))
    return [dict(row) for row in db.execute(query).mappings()]


def unsubscribe_key(engine: Engine) -> str:
    """The unsubscribe links' signing key, drawn at its first use and kept."""
    return kept_secret(engine, UNSUBSCRIBE_SECRET, lambda: secrets.token_hex(32))


# -- the unsubscribe link's token: the player and a MAC of their current address -------------
def unsubscribe_token(key: str, player_id: int, address: str) -> str:
    mac = hmac.new(key.encode(), f"unsubscribe:{player_id}:{address}".encode(), hashlib.sha256).hexdigest()
    return f"{player_id}.{mac}"


def unsubscribe_by_token(db: Connection, token: str, key: str) -> bool:
    """Remove the subscription the token was made for; false if it is not (or no longer) valid."""
    player, _, mac = token.partition(".")
    if not player.isdigit() or len(player) > 12 or not mac:
        return False
    found = subscription(db, int(player))
    if found is None:
        return False
    expected = unsubscribe_token(key, int(player), found["address"])
    if not hmac.compare_digest(expected.encode(), token.encode()):
        return False
    return unsubscribe(db, int(player))


# -- sending --------------------------------------------------------------------------------
class EmailChannel:
    """Sends each notice whose player opted in to e-mail, one message each, over SMTP."""

    def __init__(self, config: WebConfig, store: Store) -> None:
        self.config, self.store = config, store
        self.key: str | None = None  # the unsubscribe links' signing key, read (or made) once

    async def send(self, notices: list[Notice]) -> None:
        if not notices or not self.config.smtp_host:
            return
        if self.key is None:
            self.key = await asyncio.to_thread(unsubscribe_key, self.store.engine)
        messages = await asyncio.to_thread(self.store.read, self.compose, notices, self.key)
        if messages:
            await asyncio.to_thread(self.deliver, messages)

    def compose(self, db: Connection, notices: list[Notice], key: str) -> list[EmailMessage]:
        found = {row["player_id"]: row for row in subscribers(db, [notice.player_id for notice in notices])}
        return [self.message(notice, found[notice.player_id], key) for notice in notices if notice.player_id in found]

    def message(self, notice: Notice, row: dict[str, Any], key: str) -> EmailMessage:
        lang, base = row["language"], self.config.public_url.rstrip("/")
        token = unsubscribe_token(key, row["player_id"], row["address"])
        stop = f"{base}{UNSUBSCRIBE_PATH}?token={quote(token)}"
        facts = {"code": notice.code, "game": notice.game}
        lines = [translate(BODIES[notice.kind], lang).format(**facts)]
        if notice.deadline:
            lines.append(translate(DEADLINE, lang).format(deadline=notice.deadline))
        lines += [translate(OPEN, lang).format(link=f"{base}/t/{notice.code}"), "", "--"]
        lines.append(translate(FOOTER, lang).format(link=stop))
        message = EmailMessage()
        message["From"] = self.config.smtp_from
        message["To"] = row["address"]
        message["Subject"] = translate(SUBJECTS[notice.kind], lang).format(**facts)
        message["List-Unsubscribe"] = f"<{stop}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content("\n".join(lines) + "\n")
        return message

    def deliver(self, messages: list[EmailMessage]) -> None:
        config = self.config
        with smtplib.SMTP(config.smtp_host or "", config.smtp_port, timeout=config.smtp_timeout) as smtp:
            if config.smtp_starttls:
                smtp.starttls()
            if config.smtp_user:
                smtp.login(config.smtp_user, config.smtp_password or "")
            for message in messages:
                try:
                    smtp.send_message(message)
                except smtplib.SMTPRecipientsRefused:
                    log.warning("the SMTP server refused a notification's address")

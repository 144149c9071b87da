"""Passkeys (WebAuthn, with the ``webauthn`` library): an account adds and removes them on its
account page, and anyone signs in with one, without a handle (a discoverable credential).

Each ceremony is two calls: the options (a fresh challenge, kept in the database so that any
instance can finish the ceremony) and the authenticator's answer. A challenge is used once (taken
out of the table by the call that checks it) and only for ``CHALLENGE_LIFE``; a challenge for
adding a passkey belongs to the account that asked for it. The relying party is the site the
request was sent to (its ``Host``; an IP address is not one, so a passkey needs a domain name, or
``localhost``), and the answer must come from a page of that origin.
"""

from __future__ import annotations

import json
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..store import now, passkey_challenges, passkeys, players
from .identity import Player, aware

CHALLENGE_LIFE = timedelta(minutes=5)
CEREMONY_MS = 120_000  # how long the browser lets the person answer
PASSKEYS_PER_ACCOUNT = 10
MAX_CREDENTIAL_ID = 1023  # bytes (WebAuthn's bound)


class Refused(Exception):
    """The authenticator's answer does not verify (or its challenge is unknown, used or expired)."""


def site_of(scheme: str, host: str) -> tuple[str, str]:
    """The relying party's id and the expected origin, for a request sent to ``scheme://host``.

    >>> site_of("https", "play.example.org:8443")
    ('play.example.org', 'https://play.example.org:8443')
    """
    return host.rsplit(":", 1)[0] if not host.endswith("]") else host, f"{scheme}://{host}"


def challenge_text() -> tuple[bytes, str]:
    challenge = secrets.token_bytes(32)
    return challenge, bytes_to_base64url(challenge)


# -- write steps (run by the hub's writer) -------------------------------------------------------
def keep_challenge(db: Connection, challenge: str, player_id: int | None) -> None:
    """Keep a new ceremony's challenge; the expired ones go."""
    at = now()
    db.execute(delete(passkey_challenges).where(passkey_challenges.c.expires_at <= at))
    db.execute(
        insert(passkey_challenges).values(challenge=challenge, player_id=player_id, expires_at=at + CHALLENGE_LIFE)
    )


def take_challenge(db: Connection, challenge: str, player_id: int | None) -> bool:
    """Use the challenge ``challenge`` of ``player_id``'s ceremony (``None``: a sign-in): ``True`` if it
    was there and live. Either way it is gone afterwards."""
    mine = (
        passkey_challenges.c.player_id.is_(None) if player_id is None else passkey_challenges.c.player_id == player_id
    )
    taken = db.execute(
        delete(passkey_challenges)
        .where(passkey_challenges.c.challenge == challenge[:64], mine)
        .returning(passkey_challenges.c.expires_at)
    ).first()
    return taken is not None and aware(taken.expires_at) > now()


def add_passkey(db: Connection, player_id: int, credential_id: str, public_key: bytes, sign_count: int) -> bool:
    """Keep a verified credential; ``False`` if the account has its most passkeys already or this
    credential is kept already."""
    count = db.execute(select(func.count()).where(passkeys.c.player_id == player_id)).scalar_one()
    known = db.execute(select(passkeys.c.id).where(passkeys.c.id == credential_id)).first()
    if count >= PASSKEYS_PER_ACCOUNT or known:
        return False
    db.execute(
        insert(passkeys).values(
            id=credential_id, player_id=player_id, public_key=public_key, sign_count=sign_count, created_at=now()
        )
    )
    return True


def remove_passkey(db: Connection, player_id: int, credential_id: str) -> bool:
    return bool(
        db.execute(delete(passkeys).where(passkeys.c.id == credential_id, passkeys.c.player_id == player_id)).rowcount
    )


def used(db: Connection, credential_id: str, sign_count: int) -> None:
    db.execute(update(passkeys).where(passkeys.c.id == credential_id).values(sign_count=sign_count, used_at=now()))


# -- reads -------------------------------------------------------------------------------------
def passkeys_of(db: Connection, player_id: int) -> list[dict[str, Any]]:
    rows = db.execute(
        select(passkeys.c.id, passkeys.c.created_at, passkeys.c.used_at)
        .where(passkeys.c.player_id == player_id)
        .order_by(passkeys.c.created_at)
    )
    return [
        {"id": row.id, "created_at": row.created_at.isoformat(), "used_at": row.used_at and row.used_at.isoformat()}
        for row in rows
    ]


def credential_of(db: Connection, credential_id: str) -> tuple[Player, bytes, int] | None:
    """The account of the credential ``credential_id``, its public key and sign count."""
    row = db.execute(
        select(players.c.id, players.c.name, players.c.handle, passkeys.c.public_key, passkeys.c.sign_count)
        .join(players, players.c.id == passkeys.c.player_id)
        .where(passkeys.c.id == credential_id)
    ).first()
    return (Player(row.id, row.name, row.handle), row.public_key, row.sign_count) if row else None


# -- ceremonies --------------------------------------------------------------------------------
def registration_options(rp_id: str, player: Player, challenge: bytes, kept: list[str]) -> dict[str, Any]:
    """What ``navigator.credentials.create`` needs to make a passkey for ``player``."""
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name="codecrack",
        user_name=player.handle or player.name,
        user_id=f"codecrack-player-{player.id}".encode(),
        user_display_name=player.handle or player.name,
        challenge=challenge,
        timeout=CEREMONY_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(known)) for known in kept],
    )
    return json.loads(options_to_json(options))


def sign_in_options(rp_id: str, challenge: bytes) -> dict[str, Any]:
    """What ``navigator.credentials.get`` needs to sign in with any passkey of this site."""
    options = generate_authentication_options(
        rp_id=rp_id, challenge=challenge, timeout=CEREMONY_MS, user_verification=UserVerificationRequirement.PREFERRED
    )
    return json.loads(options_to_json(options))


def verified_registration(
    credential: dict[str, Any], challenge: str, rp_id: str, origin: str
) -> tuple[str, bytes, int]:
    """The new credential's id, public key and sign count; :class:`Refused` if the answer does not verify."""
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        raise Refused(str(error)) from None
    if len(verified.credential_id) > MAX_CREDENTIAL_ID:
        raise Refused("credential id too long")
    return bytes_to_base64url(verified.credential_id), verified.credential_public_key, verified.sign_count


def verified_sign_in(
    credential: dict[str, Any], challenge: str, rp_id: str, origin: str, public_key: bytes, sign_count: int
) -> int:
    """The credential's new sign count; :class:`Refused` if the answer does not verify."""
    try:
        return verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
        ).new_sign_count
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        raise Refused(str(error)) from None

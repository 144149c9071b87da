"""Accounts: handles, argon2id passwords, and the throttling of sign-ins.

- A handle is kept as chosen (NFKC) and compared NFKC and case-folded (``handle_key``, unique), so
  ``Ann``, ``ANN`` and ``Ａｎｎ`` are one account. 3 to 20 letters, digits, ``_`` or ``-``; reserved
  words (and ``guest-...``, the generated guests' names) are refused.
- Passwords are hashed with argon2id (argon2-cffi's defaults), at most two hashes at once (each
  takes 64 MiB), off the event loop. An unknown handle costs the same verification as a wrong
  password (against a stored hash of the same parameters) and gets the same answer.
- Failed sign-ins are counted per account and per address in the database (every instance sees
  them): past the limit within the window, sign-ins are refused without checking the password.
"""

from __future__ import annotations

import asyncio
import threading
import unicodedata
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from ...core.errors import OptionError
from ...i18n import N_
from ..store import now, sign_in_failures
from .identity import aware

HANDLE_LENGTH = (3, 20)
PASSWORD_LENGTH = (8, 256)  # the upper bound caps the hashing work one request may ask for
RESERVED = {
    "admin", "administrator", "root", "system", "codecrack", "moderator", "mod", "support", "help",
    "staff", "guest", "deleted", "anonymous", "nobody", "null", "undefined", "me", "api", "static",
    "login", "logout", "signin", "signout", "account", "settings", "ai", "bot", "player",
}  # fmt: skip
RESERVED_PREFIXES = ("guest-", "deleted")
ACCOUNT_FAILURES = 5  # failed sign-ins per account within the window ...
ADDRESS_FAILURES = 20  # ... and per address
WINDOW = timedelta(minutes=15)

hasher = PasswordHasher()  # argon2id
hashing = threading.BoundedSemaphore(2)  # taken in the worker thread
# what an unknown handle's password is verified against: made once with ``hasher``'s parameters
# (made at import instead, it cost every process that starts the app a fifth of a second of CPU)
UNKNOWN_HASH = "$argon2id$v=19$m=65536,t=3,p=4$NBiVIzD7/F9ODsIitKKBnQ$9FVgM6qmp7T9DpDOOZTwi7eXgOFqi+mL2rBFqVfO3vI"


def handle_key(handle: str) -> str:
    """The form handles are compared in.

    >>> handle_key("Ａｎｎ") == handle_key("ANN") == "ann"
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", handle).casefold())


def checked_handle(handle: str) -> str:
    """The handle as kept (NFKC, without surrounding blanks); :class:`OptionError` if it is not one.

    >>> checked_handle(" Ann_B ")
    'Ann_B'
    """
    handle = unicodedata.normalize("NFKC", handle).strip()
    low, high = HANDLE_LENGTH
    if not low <= len(handle) <= high:
        raise OptionError(N_("handle: {low} to {high} characters"), low=low, high=high)
    if not all(c.isalnum() or c in "_-" for c in handle):
        raise OptionError(N_("handle: only letters, digits, _ and -"))
    key = handle_key(handle)
    if key in RESERVED or key.startswith(RESERVED_PREFIXES):
        raise OptionError(N_("handle: '{handle}' is reserved"), handle=handle)
    return handle


def checked_password(password: str) -> str:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise OptionError(N_("password: {low} to {high} characters"), low=low, high=high)
    return password


async def hash_password(password: str) -> str:
    def make() -> str:
        with hashing:
            return hasher.hash(password)

    return await asyncio.to_thread(make)


async def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one of ``stored`` (``None``: no such account; the same work)."""

    def verify() -> bool:
        with hashing:
            try:
                return hasher.verify(stored or UNKNOWN_HASH, password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False

    return await asyncio.to_thread(verify)


# -- throttling ----------------------------------------------------------------------------------
def account_failures_key(handle: str) -> str:
    """The key of the failed sign-ins counted for the account ``handle``."""
    return f"account:{handle_key(handle)}"[:80]


def throttle_keys(handle: str | None, address: str) -> dict[str, int]:
    """The counters a sign-in is checked against, and each one's limit (without a handle: the
    address's alone)."""
    by_address = {f"address:{address}"[:80]: ADDRESS_FAILURES}
    return by_address if handle is None else {account_failures_key(handle): ACCOUNT_FAILURES, **by_address}


def throttled(db: Connection, limits: dict[str, int]) -> bool:
    """Whether any counter reached its limit within the window."""
    rows = db.execute(select(sign_in_failures).where(sign_in_failures.c.key.in_(list(limits))))
    start = now() - WINDOW
    return any(row.failures >= limits[row.key] and aware(row.since) > start for row in rows)


def count_failure(db: Connection, keys: list[str]) -> None:
    """One more failure on each counter; a counter whose window is over starts again."""
    at = now()
    for key in keys:
        row = db.execute(select(sign_in_failures).where(sign_in_failures.c.key == key)).first()
        if row is None:
            db.execute(insert(sign_in_failures).values(key=key, failures=1, since=at))
        elif aware(row.since) <= at - WINDOW:
            db.execute(update(sign_in_failures).where(sign_in_failures.c.key == key).values(failures=1, since=at))
        else:
            db.execute(
                update(sign_in_failures)
                .where(sign_in_failures.c.key == key)
                .values(failures=sign_in_failures.c.failures + 1)
            )


def clear_failures(db: Connection, key: str) -> None:
    db.execute(delete(sign_in_failures).where(sign_in_failures.c.key == key))

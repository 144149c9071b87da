"""Cross-site request forgery: a page of another site may make a browser send this site's cookie
along, so every cookie-authenticated state change (any POST, PUT, PATCH or DELETE that carries the
session cookie) must show two things, or it is refused 403 before any route runs:

- its ``Origin`` (or, without one, its ``Referer``) is this site's own origin, and
- its ``X-CSRF-Token`` header is the session's token (``GET /api/me`` gives it to the page), which
  another site can neither read nor compute.

Requests without the cookie (the API's and the terminal's, with a seat token) are not affected.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.requests import cookie_parser

from ...i18n import _
from ..middleware import ASGIApp, Receive, Scope, Send, send_json
from ..notify.email import CONFIRM_PATH, UNSUBSCRIBE_PATH

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
TOKEN_PATHS = {UNSUBSCRIBE_PATH, CONFIRM_PATH}  # authorised by a signed token in the request, never by the cookie
CSRF_HEADER = b"x-csrf-token"
DEFAULT_PORTS = {"http": 80, "https": 443}


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def origin_of(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of a URL, the default port filled in.

    >>> origin_of("https://Example.org/a") == origin_of("https://example.org:443")
    True
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def same_origin(scope: Scope, required: bool = True) -> bool:
    """Whether the request came from a page of this site: its ``Origin`` (else ``Referer``) names
    the scheme, host and port the request was sent to. Without either: ``not required`` (a client
    that is not a browser; a browser always sends ``Origin`` with a websocket and a POST)."""
    sent = header(scope, b"origin") or header(scope, b"referer")
    if sent is None:
        return not required
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    host = header(scope, b"host") or ""
    return origin_of(sent) is not None and origin_of(sent) == origin_of(f"{scheme}://{host}")


class CsrfGuard:
    """Refuses the cookie-authenticated state changes that fail the checks above."""

    def __init__(self, app: ASGIApp, cookie: str, token: Callable[[str], str]) -> None:
        self.app, self.cookie, self.token = app, cookie, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE and scope["path"] not in TOKEN_PATHS:
            secret = cookie_parser(header(scope, b"cookie") or "").get(self.cookie)
            if secret:
                if not same_origin(scope):
                    return await send_json(send, 403, {"detail": _("refused: this request came from another site")})
                sent = header(scope, CSRF_HEADER) or ""
                if not hmac.compare_digest(sent.encode(), self.token(secret).encode()):
                    return await send_json(
                        send, 403, {"detail": _("refused: the page's security token is missing or stale; reload it")}
                    )
        await self.app(scope, receive, send)

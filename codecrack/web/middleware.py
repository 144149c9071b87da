"""ASGI middleware in front of the app: a cap on HTTP request bodies, and the security headers; and
the game websocket's plain ASGI socket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect

from .direct_send import SEND_NOW

Scope = MutableMapping[str, Any]  # as starlette.types declares it
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Everything the front end needs comes from this server; nothing may frame it.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}


async def server_error(request: Any, error: Exception) -> JSONResponse:
    """The answer to an error no handler expected (uvicorn still logs it): a 500 that carries the
    security headers too (Starlette's own 500 is sent outside every middleware)."""
    return JSONResponse({"detail": "internal server error"}, status_code=500, headers=SECURITY_HEADERS)


async def send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": data})


class BodyLimit:
    """Reads an HTTP request's body first, up to ``max_bytes`` and within ``timeout`` seconds; a
    bigger one is answered 413, a slower one 408, without reaching the app (so no route ever holds
    more than ``max_bytes`` of a request, and no client holds a connection by dripping its body)."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float = 10.0) -> None:
        self.app, self.max_bytes, self.timeout = app, max_bytes, timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        too_big = {"detail": f"the request body is over {self.max_bytes} bytes"}
        if self._declared_length(scope) > self.max_bytes:
            return await send_json(send, 413, too_big)
        chunks, size = [], 0
        deadline = asyncio.get_running_loop().time() + self.timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                return await send_json(send, 408, {"detail": f"the request body took over {self.timeout:g} s"})
            if message["type"] != "http.request":
                return  # the client left before sending its body
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                return await send_json(send, 413, too_big)
            if not message.get("more_body"):
                break
        await self.app(scope, self._replay(b"".join(chunks), receive), send)

    @staticmethod
    def _declared_length(scope: Scope) -> int:
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                return int(value) if value.isdigit() else 0
        return 0

    @staticmethod
    def _replay(body: bytes, receive: Receive) -> Receive:
        sent = False

        async def replayed() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        return replayed


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.headers]}
            await send(message)

        await self.app(scope, receive, with_headers)


def client_address(scope: Scope) -> str:
    """The client's address: the TCP peer, or the proxy's forwarded one when uvicorn trusts it."""
    client = scope.get("client")
    return client[0] if client else "unknown"


class AsgiSocket:
    """A game websocket straight through the server's ASGI ``receive`` and ``send``, with no
    framework layer between (:class:`.live_routes.GameSockets`). :meth:`send_now` writes at once
    when the server offers it (``codecrack serve``'s protocol: :mod:`.direct_send`)."""

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.receive, self._send = receive, send
        offered = scope.get("extensions", {}).get(SEND_NOW)
        self._send_now: Callable[[str], bool] | None = offered["send"] if offered else None

    async def accept(self) -> None:
        """Take the client's connect and accept it; :class:`WebSocketDisconnect` if it left first."""
        message = await self.receive()
        if message["type"] != "websocket.connect":
            raise WebSocketDisconnect(message.get("code", 1006))
        await self._send({"type": "websocket.accept"})

    async def send_text(self, data: str) -> None:
        await self._send({"type": "websocket.send", "text": data})

    def send_now(self, data: str) -> bool:
        """Write ``data`` at once if the server can; ``False`` if it must go through :meth:`send_text`."""
        return self._send_now is not None and self._send_now(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason or ""})

"""A real uvicorn server on loopback, in a thread, and raw websocket clients for it.

For what the ``TestClient`` cannot show: real sockets whose kernel buffers fill when a client
stops reading.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from codecrack.web.app import create_app
from codecrack.web.config import WebConfig
from codecrack.web.server import uvicorn_options

GUARD = 60.0  # seconds a test waits for any one message before it fails (a hang guard, no timing claim)


@contextmanager
def live_server(config: WebConfig, send_buffer: int | None = None) -> Iterator[tuple[str, int]]:
    """Serve the app on a free loopback port; ``send_buffer`` caps each accepted socket's kernel
    send buffer, so a client that stops reading blocks the server's sends after a few kilobytes."""
    listener = socket.socket()
    if send_buffer:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    listener.bind(("127.0.0.1", 0))
    options = {**uvicorn_options(config), "log_level": "warning"}  # as `codecrack serve` runs it, quieter
    server = uvicorn.Server(uvicorn.Config(create_app(config), **options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the server did not start")
            thread.join(0.01)
        yield listener.getsockname()
    finally:
        server.should_exit = True
        thread.join(GUARD)
        listener.close()


class RawSocket:
    """A websocket client on a plain socket: it reads only when told to, so it can stall."""

    def __init__(self, address: tuple[str, int], path: str, receive_buffer: int = 4096) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(GUARD)
        self.sock.connect(address)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {address[0]}:{address[1]}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        response = b""
        while not response.endswith(b"\r\n\r\n"):
            response += self._exactly(1)
        assert response.startswith(b"HTTP/1.1 101"), response

    def _exactly(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.sock.recv(size - len(data))
            if not chunk:
                raise EOFError("the server closed the socket")
            data += chunk
        return data

    def send(self, message: dict[str, Any]) -> None:
        payload, mask = json.dumps(message).encode(), os.urandom(4)
        header = (
            bytes([0x81, 0x80 | len(payload)])
            if len(payload) < 126
            else bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(payload))
        )
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def frames(self) -> Iterator[tuple[int, bytes]]:
        """``(opcode, payload)`` of each frame the server sent, up to its close frame or the end."""
        while True:
            try:
                first, second = self._exactly(2)
            except (EOFError, ConnectionResetError):
                return
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self._exactly(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self._exactly(8))[0]
            payload = self._exactly(size)
            yield first & 0x0F, payload
            if first & 0x0F == 8:
                return

    def read_all(self) -> tuple[list[dict[str, Any]], int | None, str]:
        """Every message, then the close code and reason (``None`` if the socket just ended)."""
        messages, code, reason = [], None, ""
        for opcode, payload in self.frames():
            if opcode == 1:
                messages.append(json.loads(payload))
            elif opcode == 8:
                code, reason = struct.unpack("!H", payload[:2])[0], payload[2:].decode()
        return messages, code, reason

    def close(self) -> None:
        self.sock.close()

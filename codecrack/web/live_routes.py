"""The live-play websocket, ``/ws/{code}``: the join (joining.py), then each client message
answered within the size and rate limits until the socket closes.

:class:`GameSockets` serves it before any layer of the app (``app.CodecrackApp`` hands it over),
straight from ASGI: an idle game socket then holds no framework frame, scope copy or wrapper for
its whole life (its cost: docs/benchmarks.md, "Idle sockets"). So it does itself what the
middleware does for the rest: the request id and table code for the logs (:func:`.logs.tag`), the
socket's language (``?lang=`` or ``Accept-Language``), and no new socket while the instance drains
(closed with 1012)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable
from functools import partial

from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from ..core.validation import problem
from ..i18n import _, set_language
from . import messages
from .actions import refused_from_client
from .collector import SOCKETS
from .config import WebConfig
from .connections import Ack, Connection, encode
from .draining import RESTARTING, Drain
from .hints import hint_for
from .hub import Hub
from .joining import POLICY, JoinRefused, join, leave
from .language import scope_language
from .limits import TokenBucket
from .logs import tag
from .middleware import AsgiSocket, Receive, Scope, Send, client_address
from .refusals import SPECTATOR
from .sandbox import OverBudget
from .schema import ChatMute, ChatSay, ChatSwitch, client_hello, read_client_message
from .table import LiveTable

ChatMessage = ChatSay | ChatMute | ChatSwitch
TOO_BIG = 1009  # websocket close code: message too big
HELLO_SECONDS = 10.0  # a new socket must say hello (with its token, or none) within this time
GAME_SOCKET = re.compile(r"^/ws/([^/]+)$")


def game_socket(scope: Scope) -> str | None:
    """The table code of a game websocket's scope (``/ws/{code}``); ``None`` for anything else."""
    found = GAME_SOCKET.match(scope["path"]) if scope["type"] == "websocket" else None
    return found[1] if found else None


class GameSockets:
    """Serves the game websockets, each in its own task, straight through the server's ``receive``
    and ``send``."""

    def __init__(self, hub: Hub, drain: Drain) -> None:
        self.hub, self.drain, self.config = hub, drain, hub.config
        self.connections = hub.fanout.counter("sockets", self.config.connections_per_address)

    async def serve(self, scope: Scope, receive: Receive, send: Send, code: str) -> None:
        """Serve one game socket, in its own task (so the log tags and the language set here are
        its own), from its connect to its close."""
        tag(scope)
        set_language(scope_language(scope))
        socket = AsgiSocket(scope, receive, send)
        await socket.accept()
        if self.drain.active:
            return await socket.close(RESTARTING, "restarting")
        address = client_address(scope)
        del scope  # read: not held for the socket's life
        if not await self.connections.enter(address):
            return await refuse(
                socket,
                POLICY,
                _("at most {count} connections from one address").format(count=self.config.connections_per_address),
            )
        SOCKETS.opened += 1
        try:  # the join and the play inline: every coroutine here is a frame held for the socket's life
            try:  # partials, not closures: a closure's variables are cells this frame holds for the socket's life
                table, connection = await join(
                    self.hub, code, partial(hello_in_time, socket), partial(new_connection, socket, self.config)
                )
            except JoinRefused as refused:
                return await refuse(socket, refused.code, refused.message)
            except WebSocketDisconnect:
                return
            except (ValueError, TimeoutError) as error:
                return await refuse(socket, POLICY, str(error) or _("no hello: say hello with your token first"))
            try:
                await connection.serve(self.converse(socket, table, connection, self.hub.chat.greet(table, connection)))
            except WebSocketDisconnect:
                pass
            finally:
                leave(self.hub, table, connection)
        finally:
            await self.connections.leave(address)
            SOCKETS.closed += 1

    async def converse(self, socket: AsgiSocket, table: LiveTable, connection: Connection, greeting: Awaitable) -> None:
        """Send the ``greeting``, then answer the connection's messages, within the size and rate
        limits, until it closes."""
        await greeting
        del greeting  # done: not held for the socket's life
        config, clock = self.config, asyncio.get_running_loop().time
        bucket, throttled = TokenBucket(config.messages_per_second, config.message_burst, clock()), False
        receive = socket.receive
        while True:
            message = await receive()  # next_text's, inline: one coroutine fewer held per idle socket
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            text = message.get("text")
            if text is not None and len(text.encode()) > config.max_ws_message_bytes:
                connection.push(
                    messages.error(_("a message has at most {count} bytes").format(count=config.max_ws_message_bytes))
                )
                connection.end(TOO_BIG, "message too big")
                return
            if not bucket.take(clock()):
                if not throttled:  # one notice per burst of dropped messages, not one per message
                    connection.push(
                        messages.error(
                            _("too many messages: at most {count} per second; this one was dropped").format(
                                count=f"{config.messages_per_second:g}"
                            )
                        )
                    )
                throttled = True
                continue
            throttled = False
            reply = await self.handle(table, connection, text)
            if reply is not None:
                connection.push(reply)

    async def handle(self, table: LiveTable, connection: Connection, text: str | None) -> messages.ServerMessage | None:
        """Answer one client message: ``action``, ``hint``, ``ping``, ``resync`` or the chat's."""
        if text is None:
            return messages.error(_("binary frames are not accepted: send JSON text"))
        try:
            message = read_client_message(text)
        except ValidationError as error:
            return messages.error(problem(error.errors(), skip=1))
        if message.type == "ping":
            return messages.pong()
        if message.type == "resync":
            return table.state_message(connection.seat)
        if message.type in ("chat", "mute", "chat_switch"):
            return await self.chat(table, connection, message)
        ref = message.ref if message.type == "action" else None
        if connection.seat is None:
            return messages.error(SPECTATOR.text(), ref)
        if message.type == "action":
            ack = Ack(connection, ref) if ref is not None else None
            refused = refused_from_client(message.action) or await table.submit(
                connection.seat, message.action, ack=ack
            )
            return None if refused is None else messages.error(refused.text(), ref)
        step, view = await table.seat_view(connection.seat)
        try:
            of = ("hint", table.code, connection.seat, step)
            return messages.hint(step, await hint_for(table, view, self.hub.bots.work, self.hub.hint_pool, of))
        except OverBudget as refused:
            return messages.error(refused.text())

    async def chat(
        self, table: LiveTable, connection: Connection, message: ChatMessage
    ) -> messages.ServerMessage | None:
        if message.type == "mute":
            self.hub.chat.mute(connection, message.seat, message.muted)
            return None
        if message.type == "chat_switch":
            refused = await self.hub.chat.switch(table, connection, message.off)
        else:
            refused = await self.hub.chat.say(table, connection, message.phrase, message.text)
        return None if refused is None else messages.error(refused)


async def refuse(socket: AsgiSocket, code: int, message: str) -> None:
    """Tell the client why, then close the socket (a client already gone is no error)."""
    try:
        await socket.send_text(encode(messages.error(message)))
        await socket.close(code)
    except (WebSocketDisconnect, OSError):
        pass


def hello_in_time(socket: AsgiSocket) -> Awaitable[str | None]:
    """The socket's hello token (:func:`hello_token`), within ``HELLO_SECONDS``."""
    return asyncio.wait_for(hello_token(socket), HELLO_SECONDS)


def new_connection(socket: AsgiSocket, config: WebConfig, seat: int | None) -> Connection:
    return Connection(seat, socket, config.send_queue_limit, config.send_timeout)


async def hello_token(socket: AsgiSocket) -> str | None:
    """The token of the socket's first message, ``{"type": "hello", "token": TOKEN or null}``;
    :class:`ValueError` if the first message is anything else."""
    text = await next_text(socket)
    try:
        return client_hello.validate_json(text or "").token
    except ValidationError as error:
        raise ValueError(
            _("the first message must be hello: {problem}").format(problem=problem(error.errors()))
        ) from None


async def next_text(socket: AsgiSocket) -> str | None:
    """The next text message; ``None`` for a binary one. Raises :class:`WebSocketDisconnect` at the end."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text")

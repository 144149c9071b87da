"""One websocket's outgoing side: a bounded queue of messages, written by a task of its own while
any wait.

Tables only ever push (:meth:`Connection.push`), so no table waits for any socket: a message is
written at once when nothing is queued before it and the socket takes it without waiting (its
writes are not paused), else queued for the writer task. A connection whose queue overflows, or
whose send stalls past ``send_timeout``, is closed; its client reconnects and gets the latest
state, because every connection starts from a whole view.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from ..i18n import N_, current

log = logging.getLogger("codecrack.web")

REPLACED = 4001  # the seat was opened by a newer connection (the front end does not reconnect then)
# the close frame's reason, in English (at most 123 bytes); the error message before it is translated
REPLACED_REASON = N_("this seat was opened in another window or tab; this one is closed")
TOO_SLOW = 4008  # the client did not read its messages in time
SLOW_REASON = "too many unread messages: reconnect for the latest state"


class Socket(Protocol):
    """What a connection needs of a websocket (:class:`.middleware.AsgiSocket` has it)."""

    async def send_text(self, data: str) -> None: ...

    def send_now(self, data: str) -> bool:
        """Write ``data`` at once, without waiting; ``False`` (nothing written) if it cannot."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


def encode(message: Mapping[str, Any]) -> str:
    """A message as the JSON text that travels (encoded once, shared by every receiver)."""
    return orjson.dumps(message).decode()


def with_ref(text: str, ref: str) -> str:
    """A message's JSON text (an object) with ``ref`` added as its last field."""
    return f'{text[:-1]},"ref":{orjson.dumps(ref).decode()}}}'


class Connection:
    """One websocket: its seat (``None`` for a spectator) and its queue of outgoing messages.

    An idle connection holds one empty list and no task of its own: its reader runs in the
    socket's task (:meth:`serve`), and its writer task (:meth:`pump`) only while messages wait."""

    def __init__(self, seat: int | None, socket: Socket, queue_limit: int = 32, send_timeout: float = 10.0) -> None:
        self.seat = seat
        self.socket = socket
        self.queue_limit = queue_limit
        self.send_timeout = send_timeout
        self.pending: list[str] = []  # at most queue_limit: a list is the smallest buffer
        self.ending: tuple[int, str] | None = None
        self.sending_since: float | None = None  # when the send under way began (loop time)
        self.watch: asyncio.TimerHandle | None = None  # checks that no send outlasts send_timeout
        self.writer: asyncio.Task | None = None  # the task running pump(), while one runs
        self.reader: asyncio.Task | None = None  # the task running serve(), while it reads
        self.stalled = False
        self.language = current()  # the socket's language (its URL's ?lang=), for texts sent to everyone

    def push(self, message: Mapping[str, Any] | str) -> None:
        """Send a message (or its JSON text) at once if nothing is queued or being sent and the
        socket can, else queue it for the writer task; never waits. An overflow closes the connection."""
        if self.ending:
            return
        if len(self.pending) >= self.queue_limit:
            self.end(TOO_SLOW, SLOW_REASON, drop_queued=True)
            return
        text = message if isinstance(message, str) else encode(message)
        if not self.pending and self.sending_since is None and self.socket.send_now(text):
            return
        self.pending.append(text)
        self._write()

    def end(self, code: int, reason: str, drop_queued: bool = False) -> None:
        """Close the socket with ``code`` and ``reason`` once the queued messages are sent (or
        at once, dropping them)."""
        if self.ending:
            return
        if drop_queued:
            self.pending.clear()
        self.ending = (code, reason)
        self._write()

    def _write(self) -> None:
        """Start the writer task, unless it runs."""
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self.pump())

    async def pump(self) -> None:
        """Send the queued messages in order; then, if the connection ends, close the socket and
        stop its reader. A send that takes longer than ``send_timeout`` ends the connection (see
        :meth:`_watch_send`)."""
        clock = asyncio.get_running_loop().time
        try:
            while self.pending:
                self.sending_since = clock()
                if self.watch is None:
                    self._watch_send(self.sending_since + self.send_timeout)
                await self.socket.send_text(self.pending.pop(0))
                self.sending_since = None
        except asyncio.CancelledError:
            if not self.stalled:
                self.writer = None  # the task keeps its cancellation, whose traceback holds self: no cycle
                raise
            task = asyncio.current_task()
            assert task is not None, "a send runs in its writer task"
            task.uncancel()
            self.end(TOO_SLOW, SLOW_REASON, drop_queued=True)
        except Exception:  # the client has gone: its reader sees the disconnect
            log.debug("a send failed; the connection is closing", exc_info=True)
            self.end(1000, "", drop_queued=True)
            self.writer = None
            return
        finally:
            self.sending_since = None
            self._unwatch()
        if self.ending:
            await self._close()
        self.writer = None

    async def _close(self) -> None:
        assert self.ending is not None, "only an ending connection closes"
        code, reason = self.ending
        try:
            await self.socket.close(code, reason)
        except Exception:
            log.debug("closing a connection failed", exc_info=True)
        reader, self.reader = self.reader, None
        if reader is not None:  # it waits for a message that may never come (a stalled client)
            reader.cancel()

    async def serve(self, reading: Awaitable[None]) -> None:
        """Read: run ``reading`` (the loop over the client's messages) in this task until it ends,
        or until the writer has closed the socket. A reader that ends by asking the connection to
        close waits for the writer to close it; one that fails (the client's disconnect, say)
        stops the writer and raises."""
        task = self.reader = asyncio.current_task()
        assert task is not None, "a connection is served in its socket's task"
        try:
            await reading
        except asyncio.CancelledError:
            if self.reader is not None:  # not the writer's doing: it lets go of the reader first
                self._stop_writer()
                raise
            task.uncancel()
            return
        except BaseException:
            self._stop_writer()
            raise
        finally:
            self.reader = None
            del task  # a traceback kept by the caller must not hold this task
        if self.ending and self.writer is not None:
            await self.writer
        self._stop_writer()

    def _stop_writer(self) -> None:
        if self.writer is not None:
            self.writer.cancel()

    def _watch_send(self, deadline: float) -> None:
        """Check at ``deadline`` that no send has been under way for ``send_timeout``. One timer
        per connection at a time, armed only while it sends: cheaper than a timeout around every
        send, and as exact."""
        self.watch = asyncio.get_running_loop().call_at(deadline, self._check_send)

    def _check_send(self) -> None:
        """End the connection if its send under way began ``send_timeout`` ago or more (its
        writer task is cancelled, and closes the socket); else watch the send under way, if any."""
        self.watch = None
        if self.sending_since is None:
            return
        deadline = self.sending_since + self.send_timeout
        if asyncio.get_running_loop().time() < deadline:
            self._watch_send(deadline)
            return
        self.stalled = True
        if self.writer is not None:
            self.writer.cancel()

    def _unwatch(self) -> None:
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None


@dataclass(frozen=True)
class Ack:
    """The reference a client put on its action: echoed in the state that action makes, on the
    connection that sent it, and on no other."""

    connection: Connection
    ref: str

    def text_for(self, connection: Connection, text: str) -> str:
        return with_ref(text, self.ref) if connection is self.connection else text

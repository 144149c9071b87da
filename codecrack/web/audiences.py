"""Audiences and broadcast: each seat's view (and the spectators'), sent as a delta from the
last one it was sent, and the table's summary sent at most once per ``table_info_interval``.
Messages are only ever queued, never awaited (see connections.py).

The last views are kept only while the table sends: ``views_kept_seconds`` after the last one
they are let go, so an idle table holds none (docs/benchmarks.md, "Idle sockets"), and its next
step sends whole views."""

from __future__ import annotations

import asyncio
from typing import Any

from . import messages
from .actions import player_view
from .connections import Ack, encode
from .summaries import live_summary
from .table_parts import TablePart


class Audiences(TablePart):
    """The broadcast part of :class:`~codecrack.web.table.LiveTable`."""

    def audience_view(self, seat: int | None) -> dict[str, Any]:
        return player_view(self.game.view(seat))

    def summary(self) -> dict[str, Any]:
        """The table's public facts (:func:`~codecrack.web.summaries.table_summary`)."""
        return live_summary(self.whole)

    def clock_info(self) -> dict[str, Any] | None:
        return self.clock.public(asyncio.get_running_loop().time()) if self.clock else None

    def state_message(self, seat: int | None) -> messages.State:
        """The seat's whole view (on connect and resync)."""
        view = self.sent.current(seat, self.step, self.audience_view)
        self._keep_views()
        return messages.state(self.step, view, self.clock_info())

    def update_message(self, seat: int | None) -> messages.State | messages.Delta:
        """What changed in the seat's view since the one it was sent last (the whole view if none)."""
        found = self.sent.changes(seat, self.step, self.audience_view)
        if found is None:
            return self.state_message(seat)
        base, changes = found
        self._keep_views()
        return messages.delta(base, self.step, changes, self.clock_info())

    def _keep_views(self) -> None:
        """A view was sent now: keep the views until ``views_kept_seconds`` after the last one.
        One timer per table while it keeps any, re-armed when it fires, not at every view."""
        loop = asyncio.get_running_loop()
        self.views_sent_at = loop.time()
        if self.views_timer is None:
            self.views_timer = loop.call_at(self.views_sent_at + self.config.views_kept_seconds, self._views_due)

    def _views_due(self) -> None:
        deadline = self.views_sent_at + self.config.views_kept_seconds
        loop = asyncio.get_running_loop()
        if loop.time() < deadline:
            self.views_timer = loop.call_at(deadline, self._views_due)
            return
        self.views_timer = None
        self.sent.forget()
        self.rest()  # and the game, kept as its record (resting.py)

    def forget_views(self) -> None:
        """Let the kept views go now (the next step sends whole views)."""
        if self.views_timer is not None:
            self.views_timer.cancel()
            self.views_timer = None
        self.sent.forget()

    def broadcast_state(self, ack: Ack | None = None) -> None:
        """Send the table's new state to its connections on this server: each gets its audience's
        delta (a seat's, or the spectators'), made and encoded once per audience. The one way a
        new step reaches the sockets. ``ack``: the sender of the step's action gets its reference
        added to its own copy; every other connection gets the same text as without it."""
        audiences = {connection.seat for connection in self.connections}
        self.sent.keep_only(audiences)
        texts = {seat: encode(self.update_message(seat)) for seat in audiences}
        for connection in list(self.connections):
            text = texts[connection.seat]
            connection.push(ack.text_for(connection, text) if ack else text)

    def broadcast(self, message: messages.ServerMessage) -> None:
        """Send every connection here the same message (encoded once)."""
        text = encode(message)
        for connection in list(self.connections):
            connection.push(text)

    def tell_seated(self, message: messages.ServerMessage) -> None:
        """Send the seated players' connections here (never a spectator's) the same message."""
        text = encode(message)
        for connection in list(self.connections):
            if connection.seat is not None:
                connection.push(text)

    def announce(self) -> None:
        """Send everyone the table's summary soon, at most once per ``table_info_interval``: a
        crowd connecting at once costs one message per connection, not one per pair."""
        if not self.running("info"):
            self.start("info", self._announce_later())

    async def _announce_later(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, self.announced_at + self.config.table_info_interval - loop.time()))
        self.announced_at = loop.time()
        self.broadcast(messages.table_notice(self.summary()))

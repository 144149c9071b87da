"""Seats and presence: who holds which seat, who is connected (here or on another instance),
and what happens when a seat's player comes back or goes."""

from __future__ import annotations

from ..i18n import translate
from . import messages
from .connections import REPLACED, REPLACED_REASON, Connection
from .table_parts import TablePart


class Seating(TablePart):
    """The seats part of :class:`~codecrack.web.table.LiveTable`."""

    def seat_for(self, token: str | None) -> int | None:
        found = self.tokens.get(token or "")
        return found[0] if found else None

    def claimed(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.tokens.values())

    def names(self) -> dict[int, str]:
        """The names of the players who claimed a seat."""
        return {seat: name for seat, name in self.tokens.values()}

    def bot_tier(self, seat: int) -> str | None:
        """The agent playing ``seat`` now: its own AI, or the takeover AI of an absent human."""
        plan = self.row.seats[seat]
        if plan["kind"] == "ai":
            return plan["agent"]
        return self.row.takeover if seat in self.taken_over else None

    def connected(self, seat: int) -> bool:
        """Whether the seat's player is connected, here or on another instance."""
        return seat in self.elsewhere or self.connected_here(seat)

    def connected_here(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def spectators(self) -> int:
        return sum(1 for connection in self.connections if connection.seat is None)

    def connect(self, connection: Connection) -> None:
        """Greet a new connection with the table and its view. The newest connection of a seat
        wins: an older one is told why and closed."""
        seat = connection.seat
        if seat is not None:
            for older in [c for c in self.connections if c.seat == seat]:
                self.connections.discard(older)
                older.push(messages.error(translate(REPLACED_REASON, older.language)))
                older.end(REPLACED, REPLACED_REASON)
            self.returned(seat)
        self.connections.add(connection)
        self.joined = True
        connection.push(messages.hello(seat, self.summary()))
        connection.push(self.state_message(seat))
        self.announce()
        self.wake()
        if seat is not None:
            self.events.presence_changed(self.whole)

    def disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.seat is not None:
            self.watch_absence(connection.seat)
            self.events.presence_changed(self.whole)
        self.announce()

    def returned(self, seat: int) -> None:
        """The seat's human is back: stop any takeover, even one mid-thought."""
        self.cancel(("absent", seat))
        if seat in self.taken_over:
            self.taken_over.discard(seat)
            self.cancel(("bot", seat))
            self.restart_turn(stored=True)

    def seen_elsewhere(self, seats: set[int]) -> None:
        """The seats connected on other instances now: a returning player ends a takeover, a
        leaving one starts the absence timer (on the driving instance)."""
        if seats == self.elsewhere:
            return
        self.elsewhere = seats
        for seat in range(self.row.players):
            if seat in seats:
                self.returned(seat)
            elif not self.running(("absent", seat)) and seat not in self.taken_over:
                self.watch_absence(seat)
        self.announce()

"""Which socket holds each seat. The rule for several connections of one seat: the newest wins;
the older one is told why and closed (and the front end does not reconnect it)."""

from __future__ import annotations

from typing import Any

REPLACED = 4001  # websocket close code: the seat was opened in another window
REPLACED_REASON = "this seat was opened in another window or tab; this one is closed"


class SeatHolders:
    def __init__(self) -> None:
        self.holders: dict[tuple[str, int], Any] = {}

    def take(self, code: str, seat: int, socket: Any) -> Any | None:
        """Make ``socket`` the holder of ``seat`` at table ``code``; returns the previous holder."""
        previous = self.holders.get((code, seat))
        self.holders[(code, seat)] = socket
        return previous

    def release(self, code: str, seat: int, socket: Any) -> None:
        if self.holders.get((code, seat)) is socket:
            del self.holders[(code, seat)]

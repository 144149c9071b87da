"""How one instance shares its tables with the others: the :class:`Fanout` port.

:class:`LocalFanout` is the single instance's: nothing to tell anyone, every table driven here.
:class:`~codecrack.web.cluster.Cluster` is the Redis one (several instances on one database).
The hub calls it as tables come and go; its methods never wait for the other instances.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from .limits import Counter, LocalCounter, LocalWindow, Window

if TYPE_CHECKING:
    from .messages import ChatLine
    from .table import LiveTable


class Fanout(Protocol):
    drives_alone: bool  # whether a table is driven (bots, clock, takeovers) here as soon as it is loaded

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def follow(self, table: LiveTable) -> None:
        """The table joined this instance's live tables."""

    def unfollow(self, table: LiveTable) -> None:
        """The table left this instance's live tables."""

    def committed(self, table: LiveTable, seat: int, action: Any) -> None:
        """``seat``'s ``action`` was committed as the table's latest step."""

    def changed(self, table: LiveTable) -> None:
        """A seat was claimed or a rematch linked."""

    def presence_changed(self, table: LiveTable) -> None:
        """A seat's connection came or went on this instance."""

    def said(self, table: LiveTable, line: ChatLine, off: bool) -> None:
        """A chat line was said (and stored) here; ``off``: the table's chat is off now."""

    async def refresh_presence(self, tables: Iterable[LiveTable]) -> None:
        """Read which seats of ``tables`` are connected on other instances."""

    async def sync(self, table: LiveTable) -> None:
        """Bring ``table`` up to the steps other instances stored (before it is used here)."""

    async def sync_seats(self, table: LiveTable) -> None:
        """Read the table's seats again: a token unknown here may have been claimed elsewhere."""

    def window(self, name: str, limit: int, seconds: float) -> Window:
        """The per-address rate limit ``name``: at most ``limit`` events in any ``seconds``,
        counted by every instance together."""

    def counter(self, name: str, limit: int) -> Counter:
        """The per-address limit ``name`` of open connections, counted by every instance together."""


class LocalFanout:
    """One instance alone: it drives every table and has no one to tell."""

    drives_alone = True

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    def follow(self, table: LiveTable) -> None:
        pass

    def unfollow(self, table: LiveTable) -> None:
        pass

    def committed(self, table: LiveTable, seat: int, action: Any) -> None:
        pass

    def changed(self, table: LiveTable) -> None:
        pass

    def presence_changed(self, table: LiveTable) -> None:
        pass

    def said(self, table: LiveTable, line: ChatLine, off: bool) -> None:
        pass

    async def refresh_presence(self, tables: Iterable[LiveTable]) -> None:
        pass

    async def sync(self, table: LiveTable) -> None:
        pass

    async def sync_seats(self, table: LiveTable) -> None:
        pass

    def window(self, name: str, limit: int, seconds: float) -> Window:
        return LocalWindow(limit, seconds)

    def counter(self, name: str, limit: int) -> Counter:
        return LocalCounter(limit)

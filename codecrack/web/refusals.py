"""Why an action was refused: one :class:`Refusal` per kind, its translated text kept apart.

A table's pipeline returns a :class:`Refused` (or ``None`` when the action was played); callers
test its ``kind``, never its text. :meth:`Refused.text` says it in the current language, for the
player who sent the action.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..core.errors import IllegalAction, explain
from ..i18n import N_, _


class Refusal(Enum):
    ILLEGAL = "illegal"  # the game refused it (its reason: ``Refused.error``)
    MOVED_ON = "moved_on"  # another instance stored a step first, and the action no longer fits
    BUSY = "busy"  # other instances took step after step; the action gave up
    NOT_STORED = "not_stored"  # the database did not take it; nothing changed
    STALE = "stale"  # the game moved on while a bot or a clock was deciding (never shown to a player)
    NO_ACTION = "no_action"  # a bot's agent gave no action (never shown to a player)
    SERVER_ACTION = "server_action"  # a player sent an action only the table's clock sends
    SPECTATOR = "spectator"  # a spectator tried to act


TEXTS: dict[Refusal, str] = {
    Refusal.MOVED_ON: N_("another move came first: {reason}"),
    Refusal.BUSY: N_("the table is busy; please try again"),
    Refusal.NOT_STORED: N_("the server could not store this action; please try again"),
    Refusal.SERVER_ACTION: N_("{kind} is sent by the table's clock, never by a player"),
    Refusal.SPECTATOR: N_("spectators cannot act; take an open seat to play"),
}


@dataclass(frozen=True)
class Refused:
    """A refused action: the kind, and what its text needs (the engine's error, the action's type)."""

    kind: Refusal
    error: IllegalAction | None = None
    action_type: str | None = None

    def text(self) -> str:
        """The refusal in the current language (the kinds never shown to a player: their name)."""
        reason = explain(self.error) if self.error is not None else ""
        if self.kind is Refusal.ILLEGAL:
            return reason
        template = TEXTS.get(self.kind)
        return self.kind.value if template is None else _(template).format(reason=reason, kind=self.action_type)

    def __str__(self) -> str:
        return self.text()


STALE = Refused(Refusal.STALE)
BUSY = Refused(Refusal.BUSY)
NOT_STORED = Refused(Refusal.NOT_STORED)
NO_ACTION = Refused(Refusal.NO_ACTION)
SPECTATOR = Refused(Refusal.SPECTATOR)


STORE_RETRY = 1.0  # seconds before a bot or a clock tries again after NOT_STORED

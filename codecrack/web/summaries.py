"""A table's public facts (no game state), for the lobby's list, the API and the ``table`` message."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hints import hints_available
from .players.ratings import rated_setup
from .store import TableRow
from .turns import turn_public

if TYPE_CHECKING:
    from .table import LiveTable


def table_summary(row: TableRow, names: dict[int, str], live: LiveTable | None = None) -> dict[str, Any]:
    """The table of ``row`` (``names``: the names of the players who claimed a seat). A ``live``
    table adds what only it knows: who is connected, which bot plays a seat now, its step and
    whether it offers hints; a stored one is summarised from its row alone."""
    seats = [
        {
            "kind": plan["kind"],
            "agent": plan.get("agent"),
            "name": names.get(seat) or plan.get("name") or f"Seat {seat + 1}",
            "claimed": plan["kind"] == "ai" or seat in names,
            "connected": live is not None and live.connected(seat),
            "bot": live.bot_tier(seat) if live is not None else plan.get("agent"),
        }
        for seat, plan in enumerate(row.seats)
    ]
    summary: dict[str, Any] = {
        "code": row.code,
        "game": row.game,
        "players": row.players,
        "options": row.options if live is None else live.game_options.model_dump(mode="json"),
        "seats": seats,
        "takeover": row.takeover,
        "rated": rated_setup(row),
        "open_to": "anyone" if row.invite is None else "link",
        "turns": turn_public(row),
    }
    if live is None:
        return {**summary, "over": row.finished, "result": row.result, "rematch": row.rematch}
    return {
        **summary,
        "step": live.step,
        "over": live.over,
        "result": live.result,
        "rematch": row.rematch,
        "hints": hints_available(row.game, live.game_options),
    }


def live_summary(table: LiveTable) -> dict[str, Any]:
    """:func:`table_summary` of a loaded table."""
    return table_summary(table.row, table.names(), table)

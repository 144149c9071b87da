"""What one seat of a Coda game may see: the view format of ``CODA_SPEC.md`` / ``docs/rules/coda.md``.

Values appear only where the seat may know them: revealed tiles, its own face-down tiles (unless
the memory variant hides them after the opening look), and the tile it drew this turn. Once the game
is over every seat, spectators included, sees every value (the end reveals everything).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .tiles import Tile, color_counts

if TYPE_CHECKING:
    from .rules import CodaGame


def tile_view(tile: Tile, value_known: bool) -> dict[str, Any]:
    known = value_known or tile.revealed
    return {"id": tile.id, "color": tile.color, "revealed": tile.revealed, "value": tile.value if known else None}


def knows_own_values(game: CodaGame, seat: int | None) -> bool:
    """A seat reads its own face-down values, except after the opening look in the memory variant."""
    return seat is not None and not (game.options.memory and seat in game.ready)


def row_views(game: CodaGame, seat: int | None) -> list[list[dict[str, Any]]]:
    """Every row as ``seat`` sees it; a row still being arranged is not shown to others; at the end
    of the game every value shows, face-down tiles still marked face down."""
    own = knows_own_values(game, seat)
    over = game.phase == "over"
    return [
        [tile_view(tile, over or own and owner == seat) for tile in row] if owner == seat or game.shown[owner] else []
        for owner, row in enumerate(game.rows)
    ]


def pile_view(game: CodaGame) -> dict[str, int]:
    """Classic piles are sorted by colour; a deck's backs show colours only tile by tile."""
    if game.options.draw == "deck":
        return {"total": len(game.pile)}
    return color_counts(game.pile)


def drawn_view(game: CodaGame, seat: int | None) -> dict[str, Any] | None:
    """The tile drawn this turn: its colour for all; its value for the drawer, or for all once it
    has turned face up (after a miss or a timeout) and waits to be placed."""
    tile = game.drawn
    if tile is None:
        return None
    known = seat == game.current or game.drawn_face_up
    return {"color": tile.color, "value": tile.value if known else None, "revealed": game.drawn_face_up}


def coda_view(game: CodaGame, seat: int | None) -> dict[str, Any]:
    """The JSON-able view of ``seat`` (``None``: a spectator); the core adds ``legal_actions``."""
    return {
        "game": game.name,
        "seat": seat,
        "players": game.players,
        "options": dict(game.options_json),
        "phase": game.public_phase,
        "to_move": sorted(game.to_move),
        "current": game.current,
        "round": game.round,
        "scores": list(game.scores),
        "pile": pile_view(game),
        "rows": row_views(game, seat),
        "drawn": drawn_view(game, seat),
        "unplaced": [{"color": t.color, "value": t.value} for t in game.unplaced[seat]] if seat is not None else [],
        "eliminated": list(game.eliminated),
        "hits_this_turn": game.hits,
        "history": list(game.history),  # its events are frozen, shared by every view
        "result": game.result,
    }

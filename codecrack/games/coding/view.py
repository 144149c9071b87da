"""What one seat of a game of The Coding may see.

A seat sees its own dealt cards and the code it ordered (``own``, ``code`` on its sheet); of
every seat, the public sheet: the data cards taken, the "cannot take" declarations, the hack
cards with their colour, the cards face up and the wrong decodes. Every code shows once the game
is over. The number card a seat chose to reveal at a stalemate, and the answers it wrote in
one-shot, are its own until they are shown: the others see only that it has chosen or answered.
Every event of the history is public.
"""

from __future__ import annotations

from typing import Any

from ...core.detached import detached
from .cards import code_text
from .table import CodingTable


def sheet_views(game: CodingTable, seat: int | None) -> list[dict[str, Any]]:
    """Every seat's public sheet, with its code where ``seat`` may know it (its own; all at the end)."""
    over = game.outcome is not None
    sheets = []
    for sheet in game.sheets:
        public = sheet.public()
        public["code"] = code_text(sheet.code) if sheet.code and (over or sheet.seat == seat) else None
        sheets.append(public)
    return sheets


def stalemate_reveals(game: CodingTable, seat: int | None) -> dict[str, Any]:
    """Who has chosen a number card to reveal, for all; which card, for the seat itself."""
    return {
        "stalemate_deals": game.deals,
        "reveal_chosen": sorted(game.pending_reveals),
        "own_reveal": game.pending_reveals.get(seat) if seat is not None else None,
    }


def written_answers(game: CodingTable, seat: int | None) -> dict[str, Any]:
    """One-shot: whom each seat has answered for, for all; the codes written, for the seat itself."""
    own = game.answers[seat] if seat is not None else {}
    return {
        "answered": {str(s): sorted(game.answers[s]) for s in range(game.players)},
        "own_answers": {str(t): code_text(c) for t, c in sorted(own.items())},
    }


def coding_view(game: CodingTable, seat: int | None) -> dict[str, Any]:
    return detached(
        {
            "game": game.name,
            "seat": seat,
            "players": game.players,
            "options": game.options.model_dump(mode="json"),
            "phase": game.phase,
            "step": game.step,
            "round": game.round,
            "rounds": game.rounds,
            "turn": game.turn,
            "first_one": game.holder,
            "to_move": sorted(game.to_move),
            "received": sorted(game.received),
            "last_give": list(game.last_give) if game.last_give else None,
            "data_stacks": dict(game.stacks),
            "hack_row": [game.deck_cards[i] for i in game.row],
            "hack_deck": len(game.hack_deck),
            "hack_limit": game.hack_limit,
            "code_pile": len(game.pile),
            "table": {"letters": list(game.table_letters), "digits": list(game.table_digits)},
            "sheets": sheet_views(game, seat),
            "own": game.sheets[seat].private() if seat is not None else None,
            "slapper": game.slapper,
            "passed": sorted(game.passed),
            **stalemate_reveals(game, seat),
            "may_stop": game.may_stop,
            "passes_in_row": game.passes_in_row,
            **written_answers(game, seat),
            "history": None,
            "result": game.outcome,
        }
    ) | {"history": list(game.history)}  # its events are frozen, shared by every view

"""What one seat of an Alphabet Code game may see.

A seat sees its own code and never another's until the game is over; every question with its answer
(answers are public); the declarations: all of them in a duel, to the creator, or once the game is
over, else only the seat's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.detached import detached
from .codes import code_json
from .letters import GLYPHS

if TYPE_CHECKING:
    from .rules import AlphacodeGame


def visible_declarations(game: AlphacodeGame, seat: int | None) -> list[dict[str, Any]]:
    if game.duel or game.outcome is not None:
        return list(game.declarations)
    if seat == game.creator:
        return list(game.declarations)
    return [d for d in game.declarations if d["seat"] == seat]


def alphacode_view(game: AlphacodeGame, seat: int | None) -> dict[str, Any]:
    own = None if seat is None else game.codes[seat]
    return detached(
        {
            "game": game.name,
            "seat": seat,
            "players": game.players,
            "options": game.options.model_dump(mode="json"),
            "sheet": game.sheet.describe(),
            "letters": game.letters,
            "glyphs": {letter: GLYPHS[letter] for letter in game.letters},
            "mode": "duel" if game.duel else "creator",
            "creator": game.creator,
            "round": game.round,
            "phase": game.phase,
            "first": game.first,
            "to_move": sorted(game.to_move),
            "handicap_left": game.handicap_left,
            "coded": [code is not None for code in game.codes],
            "code": None if own is None else code_json(own, game.sheet),
            "target": game.target(seat),
            "questions": game.questions,
            "declarations": visible_declarations(game, seat),
            "misses": game.misses,
            "eliminated": game.eliminated,
            "pending": game.pending,
            "past_rounds": game.past_rounds,
            "codes": game.codes_json() if game.outcome is not None else None,
            "history": None,
            "result": game.result,
        }
    ) | {"history": list(game.history)}  # its events are frozen, shared by every view

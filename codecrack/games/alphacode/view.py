"""What one seat of an Alphabet Code game may see.

A seat sees its own code and never another's until the game is over; every question with its answer
(answers are public); the declarations: all of them in a duel, to the creator, or once the game is
over, else only the seat's own.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...core.detached import detached
from ...core.frozen import FrozenDict, FrozenList, frozen
from .codes import Code, shared_code_json
from .letters import GLYPHS, LETTER_SETS
from .sheet import sheet_of

if TYPE_CHECKING:
    from .rules import AlphacodeGame, AlphacodeOptions


def visible_declarations(game: AlphacodeGame, seat: int | None) -> list[dict[str, Any]]:
    if game.duel or game.outcome is not None:
        return list(game.declarations)
    if seat == game.creator:
        return list(game.declarations)
    return [d for d in game.declarations if d["seat"] == seat]


def alphacode_view(game: AlphacodeGame, seat: int | None) -> dict[str, Any]:
    """The seat's view: new top-level lists, holding the frozen parts the game shares (the answers,
    declarations, past rounds and history are frozen when they happen; the parts no step changes
    once per option set), so a view copies nothing (docs/engine.md, "Views share what never changes")."""
    own = None if seat is None else game.codes[seat]
    kept = game.view_parts
    fixed = kept.get("fixed")
    if fixed is None:
        fixed = kept["fixed"] = _fixed_parts(game.name, game.players, game.options)
    result = game.result
    return {
        "game": fixed["game"],
        "seat": seat,
        "players": fixed["players"],
        "options": fixed["options"],
        "sheet": fixed["sheet"],
        "letters": fixed["letters"],
        "glyphs": fixed["glyphs"],
        "mode": fixed["mode"],
        "creator": game.creator,
        "round": game.round,
        "phase": game.phase,
        "first": game.first,
        "to_move": sorted(game.to_move),
        "handicap_left": game.handicap_left,
        "coded": [code is not None for code in game.codes],
        "code": None if own is None else _own_code(kept, seat, own, game),
        "target": game.target(seat),
        "questions": list(game.questions),  # its answers are frozen, shared by every view
        "declarations": visible_declarations(game, seat),
        "misses": list(game.misses),
        "eliminated": list(game.eliminated),
        "pending": list(game.pending),
        "past_rounds": list(game.past_rounds),
        "codes": game.codes_json() if game.outcome is not None else None,
        "history": list(game.history),  # its events are frozen, shared by every view
        "result": None if result is None else detached(result),
    }


def _own_code(kept: dict[Any, Any], seat: int | None, own: Code, game: AlphacodeGame) -> FrozenList:
    """The seat's code as its views show it, made once per code (a new round's code is another)."""
    found = kept.get(seat)
    if found is None or found[0] is not own:
        found = kept[seat] = (own, shared_code_json(own, game.sheet))
    return found[1]


@lru_cache(maxsize=64)
def _fixed_parts(name: str, players: int, options: AlphacodeOptions) -> FrozenDict:
    """What no step of a game changes, made once for every game of these options (frozen, shared
    by every view of each of them: docs/engine.md, "Views share what never changes")."""
    sheet = sheet_of(options.columns, options.rows)
    letters = LETTER_SETS[options.letters]
    parts: FrozenDict = frozen(
        {
            "game": name,
            "players": players,
            "options": options.model_dump(mode="json"),
            "sheet": sheet.describe(),
            "letters": letters,
            "glyphs": {letter: GLYPHS[letter] for letter in letters},
            "mode": "duel" if players == 2 else "creator",
        }
    )
    return parts

"""Alphabet Code's declared nature (see :mod:`codecrack.core.nature`) for each player count and options.

A declaration's letters are far too many to enumerate, and the game offers a seat a declaration
only once the public answers settle the code it cracks, so one slot stands for "declare the
code the answers settle".

>>> from codecrack.games.alphacode.rules import AlphacodeOptions
>>> nature = declare(2, AlphacodeOptions())
>>> nature.actions.size, nature.rounds_bounded, nature.max_chance_outcomes
(47, False, 44099)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from ...core.nature import ActionSpace, Nature, action_key
from .codes import DENSE_SQUARES, legal_codes
from .letters import LETTER_SETS
from .rules import MISSES_ALLOWED
from .sheet import Sheet, all_questions, sheet_of

HANDICAP_MAX = 3


def slot_key(action: Mapping[str, Any]) -> Hashable:
    """Every declaration shares one slot; other actions have their own."""
    return "declare" if action.get("type") == "declare" else action_key(action)


def action_templates(sheet: Sheet) -> list[dict[str, Any]]:
    return [{"type": "random_code"}, *all_questions(sheet), {"type": "declare"}, {"type": "pass"}]


def round_length(players: int, questions: int) -> int:
    """Actions in one round at most: the codes, every question about each code, and each solver's
    declarations (the misses allowed, a right one, a final or cascade one)."""
    codes, targets = (2, 2) if players == 2 else (1, 1)
    return codes + HANDICAP_MAX + targets * questions + players * (MISSES_ALLOWED + 3)


def declare(players: int, options: Any) -> Nature:
    sheet = sheet_of(options.columns, options.rows)
    dense = len(sheet.squares) <= DENSE_SQUARES
    codes = (
        len(legal_codes(LETTER_SETS[options.letters], sheet.columns, sheet.rows, options.real_words)) if dense else 0
    )
    questions = len(all_questions(sheet))
    chance = ("first",) if options.first is None else ()
    return Nature(
        dynamics=frozenset({"sequential", "simultaneous"}),
        actions=ActionSpace(action_templates(sheet), key=slot_key),
        max_length=round_length(players, questions),
        utility="win_share",
        chance=chance + ("code",),
        max_chance_outcomes=max(players, codes),
        rounds_bounded=players > 2,
        explicit_chance=dense,
    )

"""Set-ups for the Alphabet Code AI tests."""

from __future__ import annotations

import codecrack
from codecrack.games.alphacode.codes import entries_from_text
from codecrack.games.alphacode.sheet import Sheet

CHIEF = "c@NA h@NC i@NE e@NG f@NK"
OTHER = "a@B h@F f@J i@PK j@L"


def code_action(text: str) -> dict:
    return {"type": "code", "letters": entries_from_text(text, Sheet())}


def duel(code0: str = OTHER, code1: str = CHIEF, first: int = 0, seed: int = 11, **options) -> codecrack.Game:
    """A 2-player game in play with known codes."""
    game = codecrack.new_game("alphacode", players=2, seed=seed, first=first, **options)
    game.apply(0, code_action(code0))
    game.apply(1, code_action(code1))
    return game


def play(game: codecrack.Game, agents: dict, seat: int, turns: int) -> None:
    """Let ``seat``'s agent take ``turns`` turns, the other seats asking their first open question."""
    while turns and not game.over:
        mover = min(game.to_move)
        if mover == seat:
            game.apply(seat, agents[seat].act(game.view(seat)))
            turns -= 1
        else:
            game.apply(mover, next(a for a in game.legal_actions(mover) if a["type"] in ("count", "filled")))

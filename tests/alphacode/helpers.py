"""Shared set-ups for the Alphabet Code tests: games with known codes."""

from __future__ import annotations

import codecrack
from codecrack.games.alphacode.codes import entries_from_text
from codecrack.games.alphacode.sheet import Sheet

CODE_A = "a@B h@F f@J i@PK j@L"  # a@NA h@NE f@NI i@PK j@NK
CODE_B = "c@NA h@NC i@NE e@NG f@NK"  # reads "chief"
CODE_C = "f@NA i@NC c@PC h@NE e@NI"  # reads "fiche"


def letters(text: str, sheet: Sheet | None = None) -> list[dict[str, str]]:
    return entries_from_text(text, sheet or Sheet())


def code_action(text: str) -> dict:
    return {"type": "code", "letters": letters(text)}


def declare(text: str) -> dict:
    return {"type": "declare", "letters": letters(text)}


def ask(kind: str, where: str) -> dict:
    return {"type": kind, "row": where[0], "column": where[1]}


def duel(code0: str = CODE_A, code1: str = CODE_B, first: int = 0, **options) -> codecrack.Game:
    """A 2-player game in its play phase with seat 0 holding ``code0`` and seat 1 ``code1``."""
    game = codecrack.new_game("alphacode", players=2, seed=11, first=first, **options)
    game.apply(0, code_action(code0))
    game.apply(1, code_action(code1))
    return game


def circle(players: int, code: str = CODE_A, first: int = 0, **options) -> codecrack.Game:
    """A game of 3+ players in its play phase; the creator (last seat by default) holds ``code``."""
    game = codecrack.new_game("alphacode", players=players, seed=5, first=first, **options)
    creator = game.view(None)["creator"]
    game.apply(creator, code_action(code))
    return game


def spend_turn(game: codecrack.Game, seat: int) -> None:
    """Let ``seat`` use its turn on the first question it has not asked yet."""
    game.apply(seat, next(a for a in game.legal_actions(seat) if a["type"] in ("count", "filled")))

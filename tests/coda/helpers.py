"""Build Coda positions by hand so that scenario tests read like the rule they check.

Tiles are written ``b5`` (face down) or ``B5`` (face up); ``w-`` is a white dash.
"""

from __future__ import annotations

import json
import random
from typing import Any

from codecrack.games.coda.rules import CodaGame
from codecrack.games.coda.tiles import Tile, parse_tile


def tile(text: str) -> Tile:
    color, value = parse_tile(text)
    return Tile(color, value, revealed=text[0].isupper())


def rigged(rows: list[str], pile: str = "", *, current: int = 0, drawn: str | None = None, **options: Any) -> CodaGame:
    """A game in the middle of a round: ``rows`` like ``["b1 w5", "b2 B7"]``, ``pile`` the undrawn
    tiles (the deck's top is the last one), seat ``current`` to move, in the draw step if the pile
    has tiles (guess step if empty or a tile is ``drawn``)."""
    game = CodaGame(players=len(rows), seed=0, first=current, **options)
    game.rows = [[tile(text) for text in row.split()] for row in rows]
    for row in game.rows:
        for number, placed in enumerate(row):
            placed.id = number
    game.next_id = [len(row) for row in game.rows]
    game.unplaced = [[] for _ in rows]
    game.shown = [True] * len(rows)
    game.opened = game.ready = set(range(len(rows)))
    game.pile = [tile(text) for text in pile.split()]
    game.current = current
    game._start_turn()
    if drawn is not None:
        game.drawn = tile(drawn)
        game.phase = "guess"
    return game


def row_labels(game: CodaGame, seat: int) -> str:
    """A row in the ``rigged`` notation (the truth, not a view)."""
    return " ".join((t.color[0].upper() if t.revealed else t.color[0]) + str(t.value) for t in game.rows[seat])


def guess(game: CodaGame, target: int, index: int, text: str) -> list[dict[str, Any]]:
    """The current seat guesses that ``target``'s tile ``index`` is ``text`` (e.g. ``b5``)."""
    color, value = parse_tile(text)
    return game.apply(game.current, {"type": "guess", "target": target, "index": index, "color": color, "value": value})


def place(game: CodaGame, index: int | None = None) -> list[dict[str, Any]]:
    """The current seat places its drawn tile: at ``index``, or at its only legal place."""
    places = [action["index"] for action in game.legal_actions(game.current)]
    if index is None:
        assert len(places) == 1, places
        index = places[0]
    return game.apply(game.current, {"type": "place", "index": index})


def snapshot(game: CodaGame) -> str:
    """Everything observable: every seat's view, the spectator's, and the record."""
    views = [game.view(seat) for seat in range(game.players)] + [game.view(None)]
    return json.dumps([views, game.record()], sort_keys=True)


def play_randomly(game: CodaGame, rng: random.Random, max_steps: int = 5000) -> list[tuple[int, dict]]:
    """Random legal play to the end; returns the (seat, action) pairs played."""
    played = []
    for _ in range(max_steps):
        if game.over:
            return played
        seat = rng.choice(sorted(game.to_move))
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        played.append((seat, action))
    raise AssertionError("the game did not end")

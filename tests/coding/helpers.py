"""Build The Coding games with chosen codes and hack row, and play short scripted turns."""

from __future__ import annotations

import codecrack
from codecrack.games.coding.cards import DIGITS, LETTERS, parse_code


def rigged(
    codes: list[str],
    *,
    mode: str = "counter-revised",
    first: int = 0,
    row: list[int] | None = None,
    pile: list | None = None,
    **options,
):
    """A game whose seats hold ``codes`` (already ordered), with hack ``row`` face up.

    The hack deck keeps its seeded order minus the row; the leftover code pile is ``pile`` (a
    list of letters and digits, top first) or every unused card in a fixed order.
    """
    game = codecrack.new_game("coding", players=len(codes), seed=11, mode=mode, first=first, **options)
    parsed = [parse_code(c) for c in codes]
    for sheet, code in zip(game.sheets, parsed):
        sheet.letter, sheet.digits = code["letter"], sorted([code["x1"], code["x2"]])
    if pile is None:
        used = {c["letter"] for c in parsed} | {c[p] for c in parsed for p in ("x1", "x2")}
        pile = [x for x in LETTERS if x not in used] + [d for d in DIGITS if d not in used]
    game.pile = [("letter", x) if isinstance(x, str) else ("digit", x) for x in pile]
    if row is not None:
        game.row, old_row = list(row), game.row
        game.hack_deck = [i for i in game.hack_deck + old_row if i not in row]
    for seat, code in enumerate(parsed):
        game.apply(seat, {"type": "order", "x1": code["x1"], "x2": code["x2"]})
    return game


def snapshot(game) -> list:
    """Everything observable about a game: every seat's view and the record."""
    return [game.view(seat) for seat in range(game.players)] + [game.view(None), game.record()]


def hack_turn(game, seat: int, to: int, card: int | None = None) -> list:
    """Play ``seat``'s turn: the first data action on offer, then give ``card`` (default: the
    first in the row) to ``to``."""
    events = []
    if game.step in ("data", "choose") and game.data_left():
        events += game.apply(seat, game.legal_actions(seat)[0])
    if game.step == "give":
        events += game.apply(seat, {"type": "give", "card": game.row[0] if card is None else card, "to": to})
    return events


def play_rounds(game) -> None:
    """Finish the hacking rounds, passing to the next seat on the left each time (the holder
    receiving last)."""
    while game.phase == "hacking":
        seat = game.turn
        to = (seat + 1) % game.players
        hack_turn(game, seat, to)

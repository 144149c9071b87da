"""Tiny Guess at the terminal (codecrack finds it as the package's ``screen`` module): the view in
one line, ``g N`` to guess N, each guess told as it happens and every card shown at the end."""

from __future__ import annotations

from typing import Any

from codecrack.core.errors import IllegalAction


def render(view: dict[str, Any]) -> str:
    card = "-" if view["card"] is None else view["card"]
    out = ", ".join(f"seat {seat + 1}" for seat in view["out"]) or "nobody"
    return f"Tiny Guess, cards 1-{view['high']}: your card {card}; out: {out}"


def parse(text: str, view: dict[str, Any]) -> dict[str, Any]:
    """``g N`` (or ``guess N``): guess N."""
    word, _, value = text.strip().partition(" ")
    if word not in ("g", "guess") or not value.strip().isdecimal():
        raise IllegalAction("type g N to guess N (? lists the moves)")
    return {"type": "guess", "value": int(value)}


def describe(seat: int | None, action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    return "; ".join(
        f"seat {e['seat'] + 1} guesses {e['value']} for seat {e['target'] + 1}: {e['answer']}"
        for e in events
        if e["type"] == "guess"
    )


def summary(game: Any) -> list[str]:
    return ["the cards: " + ", ".join(f"seat {seat + 1} {card}" for seat, card in enumerate(game.cards))]

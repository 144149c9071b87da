"""Tiny Guess: each seat holds a secret card 1..high; on your turn guess the card of the next seat
still in. A hit puts that seat out; a miss is answered "higher" or "lower". The last seat in wins.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from codecrack.core.errors import IllegalAction
from codecrack.core.game import Game
from codecrack.core.options import GameOptions


class TinyGuessOptions(GameOptions):
    high: int = Field(6, ge=3, le=12)


class TinyGuessGame(Game):
    name = "tinyguess"
    min_players = 2
    max_players = 3
    Options = TinyGuessOptions

    def _setup(self) -> None:
        deck = list(range(1, self.options.high + 1))
        self.shuffle("deal", deck)
        self.cards = [deck.pop() for _ in range(self.players)]
        self.out: list[int] = []
        self.guessed: list[list[int]] = [[] for _ in range(self.players)]
        self.history: list[dict[str, Any]] = []
        self.turn = self.first_seat()

    def target(self) -> int:
        seat = (self.turn + 1) % self.players
        while seat in self.out:
            seat = (seat + 1) % self.players
        return seat

    def _to_move(self) -> frozenset[int]:
        return frozenset({self.turn})

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        tried = self.guessed[self.target()]
        return [{"type": "guess", "value": v} for v in range(1, self.options.high + 1) if v not in tried]

    def _apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        if action["type"] != "guess" or set(action) != {"type", "value"}:
            raise IllegalAction("the only action is {'type': 'guess', 'value': N}")
        if action not in self._legal_actions(seat):
            raise IllegalAction(f"value must be an untried whole number from 1 to {self.options.high}")
        target, value = self.target(), action["value"]
        self.guessed[target].append(value)
        hit = self.cards[target] == value
        event = {
            "type": "guess",
            "seat": seat,
            "target": target,
            "value": value,
            "answer": "hit" if hit else "higher" if self.cards[target] > value else "lower",
        }
        if hit:
            self.out.append(target)
        if len(self.out) < self.players - 1:
            self.turn = self.target() if hit else self._next(seat)
        self.history.append(event)
        return [dict(event)]

    def _next(self, seat: int) -> int:
        seat = (seat + 1) % self.players
        while seat in self.out:
            seat = (seat + 1) % self.players
        return seat

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "seat": seat,
            "players": self.players,
            "high": self.options.high,
            "card": None if seat is None else self.cards[seat],
            "turn": self.turn,
            "out": list(self.out),
            "history": [dict(event) for event in self.history],
            "result": self._result(),
        }

    def _result(self) -> dict[str, Any] | None:
        if len(self.out) < self.players - 1:
            return None
        return {"winners": [s for s in range(self.players) if s not in self.out], "scores": None}

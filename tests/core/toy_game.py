"""A tiny game used to pin the engine contract without any real game's rules."""

from __future__ import annotations

from typing import Any

from codecrack.core.errors import IllegalAction
from codecrack.core.game import Game
from codecrack.core.options import GameOptions


class ToyOptions(GameOptions):
    target: int = 5


class ToyGame(Game):
    """Each seat holds a secret number; seats take turns adding 1 or 2 to a public total."""

    name = "toy"
    min_players = 2
    max_players = 3
    Options = ToyOptions

    def _setup(self) -> None:
        self.secrets = [self.rng.randrange(100) for _ in range(self.players)]
        self.turn = self.first_seat()
        self.total = 0
        self.last = None

    def _to_move(self) -> frozenset[int]:
        return frozenset({self.turn})

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return [{"type": "add", "amount": 1}, {"type": "add", "amount": 2}]

    def _apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        if action["type"] != "add":
            raise IllegalAction(f"unknown action type {action['type']!r}")
        if action.get("amount") not in (1, 2):
            raise IllegalAction("amount must be 1 or 2")
        self.total += action["amount"]
        self.last = seat
        self.turn = (self.turn + 1) % self.players
        return [{"type": "added", "seat": seat, "amount": action["amount"]}]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total, "secret": None if seat is None else self.secrets[seat], "turn": self.turn}

    def _result(self) -> dict[str, Any] | None:
        if self.total < self.options.target:
            return None
        return {"winners": [self.last], "scores": None}

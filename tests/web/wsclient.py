"""A websocket player for the TestClient tests: keeps every message it received."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable

Message = dict[str, Any]


class Seat:
    def __init__(self, websocket) -> None:
        self.ws = websocket
        self.log: list[Message] = []
        self.view: dict[str, Any] | None = None
        self.step = -1

    def receive(self) -> Message:
        message = self.ws.receive_json()
        self.log.append(message)
        if message["type"] == "state":
            self.view, self.step = message["view"], message["step"]
        return message

    def until(self, wanted: Callable[[Message], bool], limit: int = 500) -> Message:
        for _ in range(limit):
            message = self.receive()
            if wanted(message):
                return message
        raise AssertionError(f"no wanted message in {limit}: last {self.log[-3:]}")

    def state_at(self, step: int) -> dict[str, Any]:
        """Read until the view after ``step`` actions has arrived."""
        if self.step < step:
            self.until(lambda m: m["type"] == "state" and m["step"] >= step)
        return self.view

    def act(self, action: dict[str, Any]) -> None:
        self.ws.send_json({"type": "action", "action": action})

    def play_to_the_end(self, choose: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
        """Answer every view that lets this seat act with ``choose(view)``; return the table at the end."""
        acted = -1
        while True:
            last = self.log[-1]
            if last["type"] == "table" and last["table"]["over"]:
                return last["table"]
            if self.view["legal_actions"] and acted != self.step:
                acted = self.step
                self.act(choose(self.view))
            self.receive()


@contextmanager
def seated(client, code: str, token: str | None = None):
    """Connect to table ``code`` (as the token's seat, or as a spectator) and read the greeting."""
    with client.websocket_connect(f"/ws/{code}?token={token or ''}") as websocket:
        seat = Seat(websocket)
        seat.until(lambda m: m["type"] == "state")
        yield seat


def create(client, game: str, seats: list[dict[str, Any]], **body) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": game, "seats": seats, **body})
    assert response.status_code == 200, response.text
    return response.json()


HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}

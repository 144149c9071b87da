"""A websocket player for the TestClient tests: keeps every message it received."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import codecrack
from codecrack.protocol.deltas import followed
from codecrack.web.schema import server_message

Message = dict[str, Any]
STATES = ("state", "delta")  # the messages that bring a new view: whole, or its changes


class Seat:
    """Follows the view through whole views and deltas: ``view`` and ``step`` are the latest,
    ``views`` every one as ``(step, view)``, ``texts`` every message as it arrived."""

    def __init__(self, websocket) -> None:
        self.ws = websocket
        self.log: list[Message] = []
        self.texts: list[str] = []
        self.views: list[tuple[int, dict[str, Any]]] = []
        self.view: dict[str, Any] | None = None
        self.step = -1

    def receive(self) -> Message:
        text = self.ws.receive_text()
        message = json.loads(text)
        server_message.validate_python(message)  # every message is one the protocol's models describe
        self.log.append(message)
        self.texts.append(text)
        if message["type"] in STATES:
            self.step, self.view = followed(self.view, self.step, message)
            self.views.append((self.step, self.view))
        return message

    def until_view(self, wanted: Callable[[dict[str, Any]], bool], limit: int = 500) -> dict[str, Any]:
        """Read until a view that ``wanted`` accepts has arrived (or is the latest already)."""
        if self.view is None or not wanted(self.view):
            self.until(lambda m: m["type"] in STATES and wanted(self.view), limit)
        return self.view

    def until(self, wanted: Callable[[Message], bool], limit: int = 500) -> Message:
        for _ in range(limit):
            message = self.receive()
            if wanted(message):
                return message
        raise AssertionError(f"no wanted message in {limit}: last {self.log[-3:]}")

    def state_at(self, step: int) -> dict[str, Any]:
        """Read until the view after ``step`` actions has arrived."""
        if self.step < step:
            self.until(lambda m: m["type"] in STATES and m["step"] >= step)
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
    with client.websocket_connect(f"/ws/{code}") as websocket:
        websocket.send_json({"type": "hello", "token": token})
        seat = Seat(websocket)
        seat.until(lambda m: m["type"] == "state")
        yield seat


@contextmanager
def coda_on_the_clock(client):
    """A two-player Coda table with the turn clock, both seats taken and both openings made, so
    seat 0's turn clock runs: yields ``(code, ann, bob)``."""
    made = create(client, "coda", [HUMAN, HUMAN], sit=0, options={"first": 0, "clock": True})
    code = made["code"]
    other = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
    with seated(client, code, made["token"]) as ann, seated(client, code, other) as bob:
        ann.act({"type": "opening", "black": 2})
        bob.act({"type": "opening", "black": 2})
        yield code, ann, bob


def create(client, game: str, seats: list[dict[str, Any]], **body) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": game, "seats": seats, **body})
    assert response.status_code == 200, response.text
    return response.json()


def bearer(token: str) -> dict[str, str]:
    """The headers that carry a seat token over HTTP."""
    return {"authorization": f"Bearer {token}"}


def replay_frames(get, code: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every frame of a finished table's replay, page by page (``get``: ``client.get`` or ``httpx.get``)."""
    frames: list[dict[str, Any]] = []
    while True:
        answer = get(f"/api/tables/{code}/replay?start={len(frames)}", headers=headers or {})
        assert answer.status_code == 200, answer.text
        page = answer.json()
        frames += page["frames"]
        if len(frames) == page["steps"]:
            return frames


HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}


def view_at(record: dict[str, Any], step: int, seat: int | None) -> dict[str, Any]:
    """``view(seat)`` after the record's first ``step`` actions, as it travels in JSON."""
    game = codecrack.replay({**record, "actions": record["actions"][:step]})
    return json.loads(json.dumps(game.view(seat)))


def play_out(players: dict[int, Seat], rng: random.Random, steps: int | None = None) -> dict[str, Any] | None:
    """Human seats play random legal moves, one mover per step, until the table reports the end
    (or ``steps`` more actions were accepted).

    Every connection receives one state or delta message per accepted action, so each seat reads step by
    step; a bot may move in between, which only makes a queued move fail or land later.
    """
    step = min(p.step for p in players.values())
    stop = None if steps is None else step + steps
    while step != stop:
        views = {seat: p.state_at(step) for seat, p in players.items()}
        if any(view.get("result") is not None for view in views.values()):
            first = next(iter(players.values()))
            return first.until(lambda m: m["type"] == "table" and m["table"]["over"])["table"]
        movers = [seat for seat, view in views.items() if view["legal_actions"]]
        if movers:
            players[movers[0]].act(rng.choice(views[movers[0]]["legal_actions"]))
        step += 1
    for p in players.values():
        p.state_at(step)
    return None

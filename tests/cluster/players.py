"""Players for the cluster tests: each a thread with a real websocket, playing random legal moves,
reconnecting when its instance goes away, and keeping every state it was sent."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import connect

from codecrack.loadtest.target import websocket_base
from codecrack.protocol.deltas import followed
from codecrack.web.actions import player_view

from ..web.wsclient import replay_frames
from .services import GUARD


class Player(threading.Thread):
    """Seat ``token``'s player at table ``code`` through ``url``. ``idle_after_reconnect``: after
    a reconnection, let one of its own turns run out (the table's clock must play it)."""

    def __init__(self, url: str, code: str, token: str | None, seed: int, idle_after_reconnect: bool = False) -> None:
        super().__init__(daemon=True)
        self.url, self.code, self.token = url, code, token
        self.rng = random.Random(seed)
        self.idle_after_reconnect = idle_after_reconnect
        self.states: dict[int, dict[str, Any]] = {}  # step -> the view sent for it
        self.step = -1
        self.view: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.reconnections = 0
        self.idled_at: int | None = None  # the step of the turn it let run out
        self.paused = threading.Event()  # set: do not act (the test is doing something)
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self.play()
        except BaseException as error:  # reported by finish()
            self.failure = error

    def play(self) -> None:
        deadline = time.monotonic() + 4 * GUARD
        while self.result is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the game at {self.code} did not end; last step {self.step}")
            try:
                with connect(f"{websocket_base(self.url)}/ws/{self.code}", open_timeout=5) as socket:
                    socket.send(json.dumps({"type": "hello", "token": self.token}))
                    self.converse(socket)
            except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, TimeoutError):
                self.reconnections += 1
                time.sleep(0.1)

    def converse(self, socket) -> None:
        acted = -1
        reconnected = self.reconnections > 0
        fresh = False  # a state read on this connection: the view from before a reconnect may be stale
        while self.result is None:
            try:
                fresh = self.read(json.loads(socket.recv(timeout=0.2))) or fresh
            except TimeoutError:  # nothing new: perhaps it was paused and may act now
                pass
            if not fresh or not self.view["legal_actions"] or acted == self.step or self.paused.is_set():
                continue
            if reconnected and self.idle_after_reconnect and self.idled_at is None:
                self.idled_at = acted = self.step  # the clock of the driving instance must play it
                continue
            acted = self.step
            socket.send(json.dumps({"type": "action", "action": self.rng.choice(self.view["legal_actions"])}))

    def read(self, message: dict[str, Any]) -> bool:
        """Take in one message; whether it was a state (whole or delta)."""
        if message["type"] == "table" and message["table"]["over"]:
            self.result = message["table"]["result"]
        if message["type"] not in ("state", "delta"):
            return False
        self.step, self.view = followed(self.view, self.step, message)
        self.states[self.step] = self.view
        return True

    def finish(self) -> None:
        self.join(4 * GUARD)
        if self.failure:
            raise self.failure
        assert not self.is_alive(), f"player at {self.code} still playing at step {self.step}"

    def check_against_record(self) -> int:
        """Every state this player was sent is ``view(seat)`` of the stored game at that step:
        nothing it was shown (so no acknowledged action) was lost or changed. Returns the number
        of actions stored."""
        headers = {"authorization": f"Bearer {self.token}"} if self.token else {}
        frames = replay_frames(
            lambda path, headers: httpx.get(self.url + path, headers=headers, timeout=GUARD), self.code, headers
        )
        for step, view in self.states.items():
            assert view == player_view(frames[step]), f"step {step} differs from the record"
        assert max(self.states) == len(frames) - 1
        return len(frames) - 1

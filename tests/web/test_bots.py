"""How a table's bots move: a decision arrives after the table's pace, however long it took."""

import asyncio
from types import SimpleNamespace

import pytest

from codecrack import new_game
from codecrack.web import bots as bots_module
from codecrack.web.bots import Bots

from .conftest import fast_config


class OneMoveTable:
    """Just enough of a LiveTable for one bot move of seat 0 in a 2-player Coda game."""

    code = "TEST1"

    def __init__(self):
        self.game = new_game("coda", players=2, seed=1, first=0)
        self.row = SimpleNamespace(game="coda", seed=1)
        self.step = 0

    def bot_tier(self, seat):
        return "random" if seat == 0 and self.step == 0 else None

    async def submit(self, seat, action, expect_step=None):
        self.game.apply(seat, action)
        self.step += 1
        return None


@pytest.mark.parametrize("thinking", [0.0, 0.25, 0.9])
def test_a_bot_waits_out_the_rest_of_the_pace_after_thinking(tmp_path, monkeypatch, thinking):
    """Thinking time must not show: the bot waits pace minus what it spent thinking (never less
    than nothing), so a quick decision and a slow one arrive at the same moment."""
    clock = iter([100.0, 100.0 + thinking])
    monkeypatch.setattr(bots_module, "monotonic", lambda: next(clock))
    waits = []

    async def record(seconds):
        waits.append(seconds)

    monkeypatch.setattr(bots_module.asyncio, "sleep", record)
    bots = Bots(fast_config(tmp_path, ai_pace=0.6))
    try:
        asyncio.run(bots.drive(OneMoveTable(), 0))
    finally:
        bots.close()
    assert waits == [pytest.approx(max(0.0, 0.6 - thinking))]

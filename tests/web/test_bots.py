"""How a table's bots move: a decision arrives after the table's pace, however long it took."""

import asyncio
import random
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

    @property
    def over(self):
        return self.game.over

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


def play_until(game, condition, limit=200):
    """Random legal play (from the seed) until ``condition(game)``; the game at that moment."""
    rng = random.Random(7)
    for _ in range(limit):
        if condition(game):
            return game
        seat = min(game.to_move)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("never reached")


def test_a_race_is_what_the_games_nature_declares():
    """Written first (issue 26 §2: bots.REAL_TIME repeated Nature.real_time and, for a game it did
    not name, took every simultaneous moment for a race). The Coding's slapping is a race; a
    simultaneous moment is not, whatever the game is called."""
    speed = new_game("coding", players=3, seed=2, mode="speed", first=0)
    assert bots_module.real_time(play_until(speed, lambda g: g.step == "open"))
    asking = play_until(new_game("alphacode", players=2, seed=1), lambda g: len(g.to_move) > 1)
    assert not bots_module.real_time(asking)

    class Renamed(type(asking)):  # the same rules, installed under another name (a plug-in)
        name = "renamed"

    Renamed.__module__ = type(asking).__module__  # its nature is found beside its rules
    asking.__class__ = Renamed
    assert not bots_module.real_time(asking)

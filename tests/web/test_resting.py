"""An idle table lets go of its game and plays its record again when next needed (resting.py):
the game it plays again is the same, state for state, and a user sees nothing of it."""

import asyncio
import random
import tracemalloc

import pytest

from codecrack import new_game

from .conftest import fast_config
from .ports import memory_table, watch

ADD = {"type": "add", "amount": 1}
SETUPS = [
    ("coda", 2, {}),
    ("coda", 3, {"dashes": True, "draw": "deck"}),
    ("coda", 2, {"memory": True, "empty_deck": "eliminate"}),
    ("coda", 2, {"rounds": 3, "clock": True}),
    ("coding", 3, {}),
    ("coding", 2, {"mode": "speed"}),
    ("coding", 3, {"mode": "counter"}),
    ("coding", 2, {"mode": "one-shot"}),
    ("alphacode", 2, {}),
    ("alphacode", 2, {"letters": 20, "real_words": True}),
]


def state_of(game):
    """Everything a game shows or draws from: every audience's view, its record, its chance and its generator."""
    seats = [*range(game.players), None]
    return {
        "views": [game.view(seat) for seat in seats],
        "record": game.record(),
        "chance": game.chance_log,
        "rng": game.rng.getstate(),
        "to_move": game.to_move,
        "awaited": game.awaited,
        "result": game.result,
    }


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
def test_a_rested_game_is_played_again_to_the_same_state(name, players, options):
    """A table rests every third action, and every other action goes on from its woken game (a
    record longer than a few actions is played again in a thread): after each, the table's game
    equals a game that never rested and took the same actions, and the next actions go on alike."""

    async def scenario():
        seats = [{"kind": "human", "agent": None, "name": ""}] * players
        table = memory_table(game=name, seats=seats, options=options, seed=7)
        reference = new_game(name, players=players, seed=7, **options)
        chooser = random.Random(f"{name}{players}{options}")
        for step in range(60):
            if reference.over:
                break
            if step % 3 == 0:
                assert table.rest() and table.held is None and table.ahead is None
                assert table.over is False and table.resting.awaited == reference.awaited
            seat = chooser.choice(sorted(reference.awaited))
            action = chooser.choice(reference.legal_actions(seat))
            reference.apply(seat, action)
            assert await table.submit(seat, action) is None
            assert state_of(table.game) == state_of(reference)
        assert table.rest()
        assert state_of(table.game) == state_of(reference)
        table.close()

    asyncio.run(scenario())


def test_an_idle_table_lets_go_of_its_game_and_its_next_step_plays_it_again():
    """When a table lets go of its last views (``views_kept_seconds`` after the last one sent) it
    lets go of its game and its twin too, keeping the record; its next action plays the record
    again and everyone is sent the same whole state as a table that kept its game."""

    async def scenario():
        kept, rested = (memory_table(options={"target": 5, "first": 0}) for _ in range(2))
        rested.config = fast_config("/nonexistent", views_kept_seconds=0.01)
        seen = {table: watch(table, seat=1) for table in (kept, rested)}
        for table in (kept, rested):
            assert await table.submit(0, ADD) is None
        assert rested.ahead is not None  # the twin, kept from action to action
        async with asyncio.timeout(60):
            while getattr(rested, "resting", None) is None:
                await asyncio.sleep(0.01)
        assert rested.held is None and rested.ahead is None and not rested.sent.latest
        kept.forget_views()
        for table in (kept, rested):
            assert await table.submit(1, ADD) is None
        assert rested.resting is None and rested.game.record() == kept.game.record()
        shown = {table: [m for m in seen[table].messages if m["type"] in ("state", "delta")] for table in seen}
        assert shown[rested][-1] == shown[kept][-1]
        assert (shown[rested][-1]["type"], shown[rested][-1]["step"]) == ("state", 2)
        # woken, it rests again views_kept_seconds later
        async with asyncio.timeout(60):
            while rested.resting is None:
                await asyncio.sleep(0.01)
        for table in (kept, rested):
            table.close()

    asyncio.run(scenario())


def test_a_resting_table_is_summarised_without_playing_its_record():
    """The lobby's summary, whether it is over, its result and whom it waits on are read from what
    the resting table keeps: they do not play its record again."""

    async def scenario():
        table = memory_table(options={"target": 5, "first": 0})
        assert await table.submit(0, ADD) is None
        awake = (table.summary(), table.over, table.result, table.waiting_on())
        assert table.rest()
        assert (table.summary(), table.over, table.result, table.waiting_on()) == awake
        assert table.resting is not None and table.held is None
        table.close()

    asyncio.run(scenario())


def test_a_table_does_not_rest_while_an_action_is_under_way():
    async def scenario():
        table = memory_table(options={"first": 0})
        async with table.lock:
            assert not table.rest()
        assert table.held is not None and table.resting is None
        table.close()

    asyncio.run(scenario())


def test_a_resting_table_keeps_a_few_hundred_bytes_of_its_game():
    """What a resting table keeps of a new game: its record as text and a few facts, under 1 KB
    (the bytes orjson returns would keep the 4 KB buffer they were written in)."""
    tables = [memory_table(game="coda", seed=seed) for seed in range(50)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for table in tables:
            assert table.rest()
        kept = (tracemalloc.get_traced_memory()[0] - before) / len(tables)
    finally:
        tracemalloc.stop()
    assert kept < 1024

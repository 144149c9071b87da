"""Two server instances on one real PostgreSQL database, racing (issue 11): the database decides.

Each instance is a :class:`Hub` of its own (own engine, own live tables, own in-process locks), so
only the database's constraints and transactions can keep them consistent:

- a seat is claimed once, a table's rematch is made once, and table codes never collide;
- the first writer of a step wins; the other instance reads the step it missed and checks its
  action again against the new state: accepted at the next step if still legal, else a clear
  error. No action is applied twice or lost.
"""

from __future__ import annotations

import asyncio
import itertools

import pytest

import codecrack
from codecrack.core import registry
from codecrack.core.errors import OptionError
from codecrack.web import hub as hub_module
from codecrack.web.hub import Hub
from codecrack.web.migrate import upgrade
from codecrack.web.store import make_engine

from ..core.toy_game import ToyGame
from .conftest import fast_config

RACES = 50
HUMANS = [{"kind": "human"}, {"kind": "human"}]


class AnyOrderGame(ToyGame):
    """The toy game, but every seat may add at any moment: an action stays legal after another's."""

    name = "anyorder"

    def _to_move(self) -> frozenset[int]:
        return frozenset(range(self.players))


@pytest.fixture(autouse=True)
def any_order_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "anyorder", f"{__name__}:AnyOrderGame")


def run_two_instances(tmp_path, postgres_url, scenario) -> None:
    """``await scenario(a, b)`` with two instances on one new database, stopped afterwards."""
    engine = make_engine(postgres_url)
    upgrade(engine)
    engine.dispose()

    async def main() -> None:
        a, b = (Hub(fast_config(tmp_path, db_url=postgres_url)) for _ in range(2))
        try:
            await scenario(a, b)
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(main())


def test_a_seat_is_claimed_once_across_instances(tmp_path, postgres_url):
    async def scenario(a: Hub, b: Hub) -> None:
        for _ in range(RACES):
            table = await a.create("toy", 2, {}, HUMANS)
            twin = await b.find(table.code)
            outcomes = await asyncio.gather(a.claim(table, 0, "Ann"), b.claim(twin, 0, "Bob"), return_exceptions=True)
            tokens = [o for o in outcomes if isinstance(o, str)]
            refusals = [o for o in outcomes if isinstance(o, OptionError)]
            assert len(tokens) == 1 and len(refusals) == 1, outcomes
            assert "seat 0 is not open" in str(refusals[0])
            stored = a.store.tokens(table.code)
            assert list(stored) == tokens
            # both instances know who holds the seat now
            assert table.tokens == twin.tokens == stored

    run_two_instances(tmp_path, postgres_url, scenario)


def test_table_codes_never_collide_across_instances(tmp_path, postgres_url, monkeypatch):
    """Both instances draw the same code first for every new table: one gets it, the other
    draws again."""
    fresh = (f"C{n:04d}" for n in itertools.count())
    drawn = itertools.chain.from_iterable((code, code) for code in fresh)
    monkeypatch.setattr(hub_module, "new_code", lambda: next(drawn))

    async def scenario(a: Hub, b: Hub) -> None:
        made = []
        for _ in range(RACES):
            made += await asyncio.gather(a.create("toy", 2, {}, HUMANS), b.create("toy", 2, {}, HUMANS))
        codes = [table.code for table in made]
        assert len(set(codes)) == len(codes) == 2 * RACES
        for table in made:
            assert a.store.table(table.code).seed == table.row.seed  # each stored row is its own table's

    run_two_instances(tmp_path, postgres_url, scenario)


async def finished_table(a: Hub, b: Hub):
    """A finished two-player toy game, loaded on both instances, with both seats claimed."""
    table = await a.create("toy", 2, {"target": 1, "first": 0}, HUMANS)
    await a.claim(table, 0, "Ann")
    await a.claim(table, 1, "Bob")
    assert await table.submit(0, {"type": "add", "amount": 1}) is None
    return table, await b.find(table.code)


def test_a_rematch_is_made_once_across_instances(tmp_path, postgres_url):
    async def scenario(a: Hub, b: Hub) -> None:
        for _ in range(RACES // 2):
            table, twin = await finished_table(a, b)
            fresh = await asyncio.gather(a.rematch(table), b.rematch(twin))
            assert fresh[0].code == fresh[1].code
            assert a.store.table(table.code).rematch == fresh[0].code
            assert fresh[0].tokens == fresh[1].tokens == a.store.tokens(fresh[0].code)

    run_two_instances(tmp_path, postgres_url, scenario)


def test_the_first_writer_of_a_step_wins_and_the_other_action_is_refused_if_no_longer_legal(tmp_path, postgres_url):
    """Turn-based: the same seat acts on both instances at once (two tabs). One action is
    played; the other is checked against the new state, where it is not that seat's turn."""

    async def scenario(a: Hub, b: Hub) -> None:
        for _ in range(RACES // 2):
            table = await a.create("toy", 2, {"target": 99, "first": 0}, HUMANS)
            twin = await b.find(table.code)
            refusals = await asyncio.gather(
                table.submit(0, {"type": "add", "amount": 1}), twin.submit(0, {"type": "add", "amount": 2})
            )
            assert refusals.count(None) == 1, refusals
            refused = next(r for r in refusals if r is not None)
            assert refused.text().startswith("another move came first: seat 1 may not act now")
            moves = a.store.moves(table.code)
            assert len(moves) == 1
            for live in (table, twin):  # the loser caught up with the step it missed
                assert live.step == 1 and live.game.record()["actions"] == moves

    run_two_instances(tmp_path, postgres_url, scenario)


def test_a_losing_action_still_legal_is_played_at_the_next_step(tmp_path, postgres_url):
    """Any order: both seats add at once on different instances, many times over. Every action
    is played exactly once, in the order the database took them, and both instances agree."""

    async def scenario(a: Hub, b: Hub) -> None:
        table = await a.create("anyorder", 2, {"target": 10_000}, HUMANS)
        twin = await b.find(table.code)
        for _ in range(RACES):
            refusals = await asyncio.gather(
                table.submit(0, {"type": "add", "amount": 1}), twin.submit(1, {"type": "add", "amount": 2})
            )
            assert refusals == [None, None]
        moves = a.store.moves(table.code)
        assert sorted(map(str, moves)) == sorted(
            map(str, [[0, {"type": "add", "amount": 1}], [1, {"type": "add", "amount": 2}]] * RACES)
        )
        await twin.catch_up()
        await table.catch_up()
        for live in (table, twin):
            assert live.step == 2 * RACES and live.game.record()["actions"] == moves
            assert live.game.view(None)["total"] == 3 * RACES
        stored = a.store.table(table.code)
        assert codecrack.replay(stored.record(moves)).view(None) == table.game.view(None)

    run_two_instances(tmp_path, postgres_url, scenario)

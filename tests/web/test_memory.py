"""Memory stays bounded: finished tables are not kept, idle tables beyond a cap are unloaded (and
resume on access), tables nobody joins expire, and a restart restores only recent tables."""

import asyncio
import gc
import random
import time
import weakref
from contextlib import ExitStack, contextmanager
from datetime import timedelta

from fastapi.testclient import TestClient

from codecrack.web.app import create_app
from codecrack.web.store import now, update_table

from .conftest import fast_config
from .wsclient import HUMAN, RANDOM, Seat, create, seated


def finished_table(client):
    made = create(client, "toy", [RANDOM, RANDOM], options={"target": 4})
    with seated(client, made["code"]) as spectator:
        spectator.until(lambda m: m["type"] == "table" and m["table"]["over"])
    return made["code"]


def test_finished_tables_are_served_without_staying_loaded(client):
    """Every fetch of a finished table loaded it for good: 1,694 fetches took RSS from 122 to 215 MB."""
    hub = client.app.state.hub
    codes = [finished_table(client) for _ in range(3)]
    for _ in range(5):
        for code in codes:
            assert client.get(f"/api/tables/{code}").json()["over"]
            assert client.get(f"/api/tables/{code}/replay").status_code == 200
    assert not any(code in hub.live for code in codes)


def test_games_played_to_the_end_leave_nothing_behind(client):
    """The soak's shape in process (a client seat against the random AI, to the end, then the
    table fetched): no table, agent or task stays per game."""
    hub, rng = client.app.state.hub, random.Random(0)

    def play_one() -> None:
        made = create(client, "toy", [HUMAN, RANDOM], sit=0)
        with seated(client, made["code"], made["token"]) as me:
            assert me.play_to_the_end(lambda view: rng.choice(view["legal_actions"]))["over"]
        assert client.get(f"/api/tables/{made['code']}").json()["over"]

    def tasks() -> int:
        return client.portal.call(lambda: len(asyncio.all_tasks()))

    play_one()
    after_one = tasks()
    for _ in range(5):
        play_one()
    assert not hub.live.tables and not hub.bots.agents
    assert tasks() == after_one


def test_two_copies_of_a_finished_table_still_make_one_rematch(client):
    hub = client.app.state.hub
    code = finished_table(client)
    first, second = client.portal.call(hub.find, code), client.portal.call(hub.find, code)
    assert first is not second

    async def ask_both():
        return await asyncio.gather(hub.rematch(first), hub.rematch(second))

    one, other = client.portal.call(ask_both)
    assert one.code == other.code == hub.store.table(code).rematch


def test_idle_tables_beyond_the_cap_are_unloaded_and_resume_on_access(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, max_live_tables=2))) as client:
        hub = client.app.state.hub
        made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"first": 0, "target": 9})
        with seated(client, made["code"], made["token"]) as me:
            me.act({"type": "add", "amount": 2})
            me.state_at(2)  # the bot answered
            for _ in range(3):
                create(client, "toy", [HUMAN, HUMAN])
            assert made["code"] in hub.live  # connected: never pushed out
        for _ in range(3):
            create(client, "toy", [HUMAN, HUMAN])
        assert len(hub.live) == 2 and made["code"] not in hub.live
        with seated(client, made["code"], made["token"]) as me:
            assert me.step == 2 and me.view["total"] >= 3
            me.act({"type": "add", "amount": 1})
            me.state_at(4)  # the bot plays again after the reload


def test_a_table_pushed_out_is_freed_without_a_garbage_collection(tmp_path):
    """A table that held itself in a reference cycle (through its views' maker) waited for the
    server collector's next whole collection once unloaded (docs/web-server.md, "Garbage collection")."""
    with TestClient(create_app(fast_config(tmp_path, max_live_tables=1))) as client:
        hub = client.app.state.hub
        made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"first": 0, "target": 9})
        with seated(client, made["code"], made["token"]) as me:
            me.act({"type": "add", "amount": 2})
            me.state_at(2)  # the bot answered: views and deltas were sent
        gone = weakref.ref(hub.live[made["code"]])
        gc.disable()
        try:
            create(client, "toy", [HUMAN, HUMAN])  # pushes it out
            client.portal.call(asyncio.sleep, 0)  # its tasks' cancellations are delivered
            assert made["code"] not in hub.live and gone() is None
        finally:
            gc.enable()


def test_the_cap_counts_only_the_tables_nobody_is_connected_to(tmp_path):
    """It counted every loaded table: with more connected tables than the cap, each new table pushed
    out every idle one, even one created a moment ago for players about to connect."""
    with TestClient(create_app(fast_config(tmp_path, max_live_tables=2))) as client, ExitStack() as watching:
        hub = client.app.state.hub
        watched = [create(client, "toy", [HUMAN, HUMAN])["code"] for _ in range(3)]
        for code in watched:
            watching.enter_context(seated(client, code))
        fresh = [create(client, "toy", [HUMAN, HUMAN])["code"] for _ in range(2)]
        assert set(watched + fresh) <= set(hub.live)
        newest = create(client, "toy", [HUMAN, HUMAN])["code"]
        assert set(watched + fresh[1:] + [newest]) == set(hub.live)


@contextmanager
def pushed_out_during_hello(client, code: str, token: str):
    """Seat ``token``'s connection to table ``code`` (on a server keeping one idle table), greeted:
    the table is pushed out before the socket opens, loaded for it, and pushed out again while the
    server awaits its hello."""
    hub = client.app.state.hub
    for _ in range(2):
        create(client, "toy", [HUMAN, HUMAN])
    assert code not in hub.live
    with client.websocket_connect(f"/ws/{code}") as socket:
        for _ in range(3000):  # the server loads it for the socket
            if code in hub.live:
                break
            time.sleep(0.01)
        for _ in range(2):
            create(client, "toy", [HUMAN, HUMAN])  # pushes the idle table out again
        socket.send_json({"type": "hello", "token": token})
        seat = Seat(socket)
        seat.until(lambda m: m["type"] == "state")
        yield seat


def test_a_table_pushed_out_while_its_connection_says_hello_is_the_one_both_seats_join(tmp_path):
    """A table fetched for a new socket could be unloaded while the socket's hello was awaited; the
    socket then joined the unloaded copy and the other seat a fresh one: two games for one table."""
    with TestClient(create_app(fast_config(tmp_path, max_live_tables=1))) as client:
        made = create(client, "toy", [HUMAN, HUMAN], sit=0)
        other = client.post(f"/api/tables/{made['code']}/join", json={"seat": 1, "name": "b"}).json()["token"]
        with pushed_out_during_hello(client, made["code"], made["token"]), seated(client, made["code"], other):
            assert {c.seat for c in client.app.state.hub.live[made["code"]].connections} == {0, 1}


def test_a_table_pushed_out_while_its_connection_says_hello_plays_on(tmp_path):
    """Pushed out, the table stopped driving its bots; the connection joins a copy loaded again, which drives them."""
    with TestClient(create_app(fast_config(tmp_path, max_live_tables=1))) as client:
        made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"first": 0, "target": 9})
        with pushed_out_during_hello(client, made["code"], made["token"]) as me:
            me.act({"type": "add", "amount": 2})
            assert me.state_at(2)["total"] >= 3  # the bot answered


def age(client, code, seconds):
    """Make a table look ``seconds`` older, in memory and on disk."""
    hub = client.app.state.hub
    if code in hub.live:
        hub.live[code].loaded_at -= seconds
    old = now() - timedelta(seconds=seconds)
    hub.store.write(update_table, code, created_at=old, active_at=old)


def test_tables_nobody_joins_expire_and_keep_their_rows_if_played(client):
    hub = client.app.state.hub
    empty = create(client, "toy", [HUMAN, HUMAN])["code"]
    played = create(client, "toy", [HUMAN, HUMAN], options={"first": 0})["code"]
    assert client.portal.call(hub.live[played].submit, 0, {"type": "add", "amount": 1}) is None
    watched = create(client, "toy", [HUMAN, HUMAN])["code"]
    claimed = create(client, "toy", [HUMAN, HUMAN], sit=0)["code"]
    with seated(client, watched):
        pass
    for code in (empty, played, watched, claimed):
        age(client, code, 2 * hub.config.unjoined_table_ttl)
    client.portal.call(hub.expire_unjoined)
    assert watched in hub.live and not {empty, played, claimed} & set(hub.live)
    assert client.get(f"/api/tables/{empty}").status_code == 404
    assert hub.store.moves(played) and client.get(f"/api/tables/{played}").status_code == 200
    assert client.get(f"/api/tables/{claimed}").status_code == 200


def test_a_restart_restores_only_recently_active_tables(tmp_path):
    config = fast_config(tmp_path)
    with TestClient(create_app(config)) as client:
        recent = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
        stale = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
        age(client, stale["code"], 2 * config.restore_window)
    with TestClient(create_app(config)) as client:
        hub = client.app.state.hub

        async def restored():
            await hub.chores[0]

        client.portal.call(restored)
        assert recent["code"] in hub.live and stale["code"] not in hub.live
        with seated(client, stale["code"], stale["token"]) as me:  # loaded on first access
            me.act({"type": "add", "amount": 1})
            assert me.state_at(1)["total"] == 1

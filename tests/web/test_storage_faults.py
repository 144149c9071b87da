"""Storage failures never split memory from disk.

The store is made to raise "database is locked" at chosen points: the action's insert, the
finished flag, the commit, the re-read after a failure, and the writes of seats and rematches.
Whatever fails, memory equals what is stored, nobody is shown an action that is not stored, and
the same request succeeds once the database answers again.
"""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

import codecrack
from codecrack.web.app import create_app

from .conftest import fast_config
from .faults import Faults
from .wsclient import HUMAN, STATES, create, seated

RETRY = "could not store"


@pytest.fixture
def server(tmp_path):
    with TestClient(create_app(fast_config(tmp_path)), raise_server_exceptions=False) as client:
        yield client, Faults(client.app.state.hub.engine)


def two_players(client, **options):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0, **options})
    other = client.post(f"/api/tables/{made['code']}/join", json={"seat": 1}).json()
    return made["code"], made["token"], other["token"]


def stored(client, code):
    store = client.app.state.hub.store
    return store.table(code), store.moves(code)


def assert_memory_matches_disk(client, code):
    table = client.app.state.hub.live[code]
    row, moves = stored(client, code)
    assert table.game.record()["actions"] == moves and table.step == len(moves)
    assert (table.game.over, table.game.result) == (row.finished, row.result)
    assert table.row.finished == row.finished


def states_after_sync(seat):
    """The step of every state or delta message this connection got, up to the answer to a ping sent now."""
    seat.ws.send_json({"type": "ping"})
    seat.until(lambda m: m["type"] == "pong")
    return [m["step"] for m in seat.log if m["type"] in STATES]


@pytest.mark.parametrize(
    "points", [["INSERT INTO actions"], ["COMMIT"], ["INSERT INTO actions", "SELECT actions.seat"]]
)
def test_a_failed_action_write_changes_nothing_and_can_be_retried(server, points):
    client, faults = server
    code, ann_token, bob_token = two_players(client, target=9)
    with seated(client, code, ann_token) as ann, seated(client, code, bob_token) as bob:
        faults.fail(*points)
        ann.act({"type": "add", "amount": 2})
        assert RETRY in ann.until(lambda m: m["type"] == "error")["message"]
        assert faults.raised == [p.upper() for p in points]
        assert states_after_sync(bob) == [0] and states_after_sync(ann) == [0]
        assert stored(client, code)[1] == []
        assert_memory_matches_disk(client, code)
        ann.act({"type": "add", "amount": 2})
        assert ann.state_at(1)["total"] == 2 and bob.state_at(1)["total"] == 2
    assert_memory_matches_disk(client, code)


@pytest.mark.parametrize(
    "points", [["UPDATE tables"], ["INSERT INTO actions"], ["COMMIT"], ["UPDATE tables", "SELECT actions.seat"]]
)
def test_a_failed_final_action_leaves_the_game_running_in_memory_and_on_disk(server, points):
    """The quoted fault: marking the game finished failed after its final action was stored,
    so nobody got the final state and the database kept ``finished=0``."""
    client, faults = server
    code, ann_token, bob_token = two_players(client, target=2)
    with seated(client, code, ann_token) as ann, seated(client, code, bob_token) as bob:
        faults.fail(*points)
        ann.act({"type": "add", "amount": 2})  # reaches the target: the final action
        assert RETRY in ann.until(lambda m: m["type"] == "error")["message"]
        assert states_after_sync(bob) == [0]
        row, moves = stored(client, code)
        assert moves == [] and not row.finished and row.result is None
        assert_memory_matches_disk(client, code)
        ann.act({"type": "add", "amount": 2})
        for seat in (ann, bob):
            assert seat.state_at(1)["total"] == 2
            over = seat.until(lambda m: m["type"] == "table" and m["table"]["over"])
            assert over["table"]["result"] == {"winners": [0], "scores": None}
    row, moves = stored(client, code)
    assert row.finished and row.result == {"winners": [0], "scores": None} and len(moves) == 1
    assert codecrack.replay(row.record(moves)).over


def test_a_failed_insert_whose_re_read_fails_too_keeps_no_unstored_action(tmp_path):
    """The quoted fault: the insert failed and so did the rollback's re-read; memory kept an
    action the database lacked, and the record no longer replayed at the next start."""
    config = fast_config(tmp_path)
    with TestClient(create_app(config), raise_server_exceptions=False) as client:
        faults = Faults(client.app.state.hub.engine)
        code, ann_token, bob_token = two_players(client, target=9)
        with seated(client, code, ann_token) as ann, seated(client, code, bob_token) as bob:
            ann.act({"type": "add", "amount": 1})
            bob.state_at(1)
            faults.fail("INSERT INTO actions", "SELECT actions.seat")
            bob.act({"type": "add", "amount": 2})
            assert RETRY in bob.until(lambda m: m["type"] == "error")["message"]
            assert faults.raised == ["INSERT INTO ACTIONS", "SELECT ACTIONS.SEAT"]
            assert_memory_matches_disk(client, code)
    with TestClient(create_app(config)) as client:  # the next start replays the stored record
        with seated(client, code, bob_token) as bob:
            assert bob.step == 1 and bob.view["total"] == 1
            bob.act({"type": "add", "amount": 2})
            assert bob.state_at(2)["total"] == 3


def test_a_failed_rematch_write_leaves_no_half_made_rematch(server):
    client, faults = server
    hub = client.app.state.hub
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0, "target": 1})
    code = made["code"]
    with seated(client, code, made["token"]) as ann:
        ann.act({"type": "add", "amount": 1})
        ann.state_at(1)
    table, tables_before = client.portal.call(hub.find, code), len(hub.store.list_tables())
    for point in ("INSERT INTO tables", "INSERT INTO seat_tokens", "UPDATE tables", "COMMIT"):
        faults.fail(point)
        with pytest.raises(OperationalError):
            client.portal.call(hub.rematch, table)
        assert faults.raised[-1] == point.upper()
        assert len(hub.store.list_tables()) == tables_before, point
        assert stored(client, code)[0].rematch is None and table.row.rematch is None
    fresh = client.portal.call(hub.rematch, table).code
    assert stored(client, code)[0].rematch == fresh
    with seated(client, fresh, made["token"]) as ann_again:
        assert next(m for m in ann_again.log if m["type"] == "hello")["seat"] == 0


def test_a_failed_seat_or_table_write_is_refused_and_changes_nothing(server):
    client, faults = server
    faults.fail("INSERT INTO tables")
    response = client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN]})
    assert response.status_code == 503 and RETRY in response.json()["detail"]
    assert client.app.state.hub.store.list_tables() == [] and not client.app.state.hub.live
    code = create(client, "toy", [HUMAN, HUMAN])["code"]
    faults.fail("INSERT INTO seat_tokens")
    response = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"})
    assert response.status_code == 503
    assert client.app.state.hub.live[code].tokens == {} and client.app.state.hub.store.tokens(code) == {}
    assert client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).status_code == 200


def test_a_table_and_its_creators_seat_are_stored_together_or_not_at_all(server):
    """Issue 24 §3: creation and the first seat claim are one transaction (a failed seat left an
    orphan table, one more for each retry)."""
    client, faults = server
    faults.fail("INSERT INTO seat_tokens")
    response = client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN], "sit": 0, "name": "Ann"})
    assert response.status_code == 503
    assert client.app.state.hub.store.list_tables() == [] and not client.app.state.hub.live


def test_an_action_whose_write_failed_after_it_landed_is_acknowledged_once(server, monkeypatch):
    """A write can raise although its commit landed (the answer to COMMIT lost): the sender was told
    to try again while everyone was shown its action, and a retry could play a second one."""
    client, _ = server
    journal = client.app.state.hub.journal
    append = journal.append

    async def landed_then_failed(*args):
        monkeypatch.setattr(journal, "append", append)
        await append(*args)
        raise OperationalError("COMMIT", None, Exception("the connection was lost"))

    code, ann_token, bob_token = two_players(client, target=9)
    with seated(client, code, ann_token) as ann, seated(client, code, bob_token) as bob:
        monkeypatch.setattr(journal, "append", landed_then_failed)
        ann.ws.send_json({"type": "action", "action": {"type": "add", "amount": 2}, "ref": "a-1"})
        mine = ann.until(lambda m: m["type"] in STATES or m["type"] == "error")
        assert mine["type"] in STATES and mine["step"] == 1 and mine["ref"] == "a-1"
        assert states_after_sync(bob) == [0, 1] and states_after_sync(ann) == [0, 1]
        assert stored(client, code)[1] == [[0, {"type": "add", "amount": 2}]]
        assert_memory_matches_disk(client, code)
        bob.act({"type": "add", "amount": 1})
        assert ann.state_at(2)["total"] == 3
    assert_memory_matches_disk(client, code)

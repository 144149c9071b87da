"""The host's clocks: Coda's turn clock sends a timeout for a player who does not move in time."""

from fastapi.testclient import TestClient

from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, create, seated


def test_coda_turn_clock_times_out_a_slow_player(tmp_path):
    config = fast_config(tmp_path, turn_think=0.05, turn_countdown=0.05)
    with TestClient(create_app(config)) as client:
        made = create(client, "coda", [HUMAN, HUMAN], sit=0, options={"first": 0, "clock": True})
        code = made["code"]
        other = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
        with seated(client, code, made["token"]) as ann, seated(client, code, other) as bob:
            ann.act({"type": "opening", "black": 2})
            bob.act({"type": "opening", "black": 2})
            # both rows are dealt; Ann is on the clock and says nothing
            clocked = ann.until(lambda m: m["type"] == "state" and m["clock"] is not None)
            assert clocked["clock"]["seat"] == 0 and clocked["clock"]["kind"] == "turn"
            assert clocked["clock"]["countdown"] == 0.05
            timed_out = ann.until(lambda m: m["type"] == "state"
                                  and any(e["type"] == "timeout" for e in m["view"]["history"]))
            assert timed_out["view"]["current"] == 1  # the drawn tile went face up, Bob's turn
            assert any(e["type"] == "insert" and e["revealed"] for e in timed_out["view"]["history"])


def test_no_clock_without_the_option(client):
    made = create(client, "coda", [HUMAN, HUMAN], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as ann:
        assert ann.log[-1]["clock"] is None

"""The host's clocks: Coda's turn clock sends a timeout for a player who does not move in time."""

from fastapi.testclient import TestClient

from codecrack import new_game, replay
from codecrack.core.clock import clock_for
from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, STATES, coda_on_the_clock, create, seated


def test_coda_turn_clock_times_out_a_slow_player(tmp_path):
    config = fast_config(tmp_path, turn_think=0.05, turn_countdown=0.05)
    with TestClient(create_app(config)) as client:
        with coda_on_the_clock(client) as (code, ann, bob):
            # both rows are dealt; Ann is on the clock and says nothing
            clocked = ann.until(lambda m: m["type"] in STATES and m["clock"] is not None)
            assert clocked["clock"]["seat"] == 0 and clocked["clock"]["kind"] == "turn"
            assert clocked["clock"]["countdown"] == 0.05
            timed_out = ann.until_view(lambda view: any(e["type"] == "timeout" for e in view["history"]))
            assert timed_out["current"] == 1  # the drawn tile went face up, Bob's turn
            assert any(e["type"] == "insert" and e["revealed"] for e in timed_out["history"])


def test_no_clock_without_the_option(client):
    made = create(client, "coda", [HUMAN, HUMAN], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as ann:
        assert ann.log[-1]["clock"] is None


def test_coding_answer_window_fouls_a_slapper_who_hesitates(tmp_path):
    import random

    rng = random.Random(8)
    config = fast_config(tmp_path, answer_window=0.3)
    with TestClient(create_app(config)) as client:
        made = create(client, "coding", [HUMAN, HUMAN], sit=0, options={"mode": "speed", "first": 0})
        code = made["code"]
        other = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
        with seated(client, code, made["token"]) as ann, seated(client, code, other) as bob:
            players, step = {0: ann, 1: bob}, 0
            while ann.state_at(step)["step"] != "open":  # the hacking rounds, played at random
                bob.state_at(step)
                seat = min(ann.view["to_move"])
                players[seat].act(rng.choice(players[seat].view["legal_actions"]))
                step += 1
            ann.act({"type": "slap"})
            answering = ann.until(lambda m: m["type"] in STATES and ann.view["slapper"] == 0)
            assert answering["clock"]["seat"] == 0 and answering["clock"]["kind"] == "answer"
            bob.act({"type": "slap"})  # too late: the first slap won the right to answer
            assert bob.until(lambda m: m["type"] == "error")["message"]
            over = ann.until_view(lambda view: view["result"] is not None)
            kinds = [event["type"] for event in over["history"]]
            assert "timeout" in kinds and over["result"]["winners"] == [1]


def _coda_at_the_place_step():
    """A clocked 2-player Coda game where seat 0 missed and must now place its drawn tile."""
    game = new_game("coda", players=2, seed=3, first=0, clock=True)
    for seat in (0, 1):
        game.apply(seat, {"type": "opening", "black": 2})
    game.apply(0, {"type": "draw", "color": "black"})
    for guess in game.legal_actions(0):
        trial = replay(game.record())
        trial.apply(0, guess)
        if trial.view(None)["phase"] == "place":
            return trial
    raise AssertionError("no missing guess found")


def test_coda_turn_clock_also_times_the_place_step(tmp_path):
    """A player must not stall the table by never placing a drawn tile."""
    game = _coda_at_the_place_step()
    clock = clock_for(game, fast_config(tmp_path))
    assert clock is not None and clock.seat == 0 and clock.action == {"type": "timeout"}
    game.apply(clock.seat, clock.action)  # the engine places it from the seed and the turn ends
    assert game.view(None)["phase"] == "draw" and game.view(None)["current"] == 1

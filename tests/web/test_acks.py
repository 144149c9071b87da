"""An action's ``ref``: the client's own label for it, echoed to that client only, in the state its
action made or in the error that refused it; nobody else's messages change at all."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from codecrack.web import hub as hub_module
from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, STATES, create, seated


def test_the_state_an_action_made_carries_its_ref_to_the_sender_only(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
    other = client.post(f"/api/tables/{made['code']}/join", json={"seat": 1}).json()["token"]
    with (
        seated(client, made["code"], made["token"]) as ann,
        seated(client, made["code"], other) as bob,
        seated(client, made["code"]) as spectator,
    ):
        ann.ws.send_json({"type": "action", "action": {"type": "add", "amount": 2}, "ref": "a-1"})
        mine = ann.until(lambda m: m["type"] in STATES and m["step"] == 1)
        assert mine["ref"] == "a-1"
        for watcher in (bob, spectator):
            assert "ref" not in watcher.until(lambda m: m["type"] in STATES and m["step"] == 1)
        bob.ws.send_json({"type": "action", "action": {"type": "add", "amount": 1}})  # no ref: none back
        assert "ref" not in bob.until(lambda m: m["type"] in STATES and m["step"] == 2)


@pytest.mark.parametrize(
    "action, who",
    [
        ({"type": "add", "amount": 3}, "seat"),  # the engine refuses it
        ({"type": "timeout"}, "seat"),  # only the server sends it
        ({"type": "add", "amount": 1}, "spectator"),  # spectators cannot act
    ],
)
def test_the_error_that_refuses_an_action_carries_its_ref(client, action, who):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"] if who == "seat" else None) as me:
        me.ws.send_json({"type": "action", "action": action, "ref": "x7"})
        assert me.until(lambda m: m["type"] == "error")["ref"] == "x7"


@pytest.mark.parametrize("ref", ["", "x" * 33, "two words", "é", 7, None, ["a"], {"a": 1}, True])
def test_a_bad_ref_is_refused_and_the_action_not_played(client, ref):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as me:
        message = {"type": "action", "action": {"type": "add", "amount": 1}, "ref": ref}
        if ref is None:  # null is the same as no ref: the action is played
            me.ws.send_json(message)
            assert "ref" not in me.until(lambda m: m["type"] in STATES and m["step"] == 1)
            return
        me.ws.send_json(message)
        error = me.until(lambda m: m["type"] == "error")
        assert "ref" in error["message"] and "ref" not in error
        me.ws.send_json({"type": "ping"})
        me.until(lambda m: m["type"] == "pong")
        assert me.step == 0


def test_other_seats_and_spectators_get_the_same_bytes_whether_or_not_a_ref_was_sent(tmp_path):
    with_refs, without = (played_coda(tmp_path / str(refs), refs) for refs in (True, False))
    assert len(with_refs["seat1"]) > 20
    assert with_refs["seat1"] == without["seat1"]
    assert with_refs["spectator"] == without["spectator"]
    assert with_refs["seat0"] != without["seat0"]  # the sender's own copies carry its refs...
    assert [unreffed(text) for text in with_refs["seat0"]] == without["seat0"]  # ...and differ by them only


def unreffed(text: str) -> str:
    message = json.loads(text)
    if message.pop("ref", None) is None:
        return text
    return json.dumps(message, separators=(",", ":"))


def played_coda(path, refs: bool, actions: int = 30) -> dict[str, list[str]]:
    """Play the first ``actions`` actions of one seeded two-player Coda game, seat 0's with a ``ref``
    (if ``refs``), and return the state, delta and error texts each socket received."""
    with ExitStack() as stack:
        patch = stack.enter_context(pytest.MonkeyPatch.context())
        patch.setattr(hub_module, "new_code", lambda: "REFS0")
        client = stack.enter_context(TestClient(create_app(fast_config(path, allow_seed=True))))
        made = create(client, "coda", [HUMAN, HUMAN], sit=0, seed=11, options={"first": 0})
        other = client.post("/api/tables/REFS0/join", json={"seat": 1}).json()["token"]
        seats = [stack.enter_context(seated(client, "REFS0", token)) for token in (made["token"], other)]
        spectator = stack.enter_context(seated(client, "REFS0"))
        for step in range(actions):
            mover = next(seat for seat in (0, 1) if seats[seat].view["legal_actions"])
            message = {"type": "action", "action": seats[mover].view["legal_actions"][0]}
            if refs and mover == 0:
                message["ref"] = f"r{step}"
            seats[mover].ws.send_json(message)
            for socket in (*seats, spectator):
                socket.until(lambda m: m["type"] in STATES and m["step"] == step + 1)
        kept = ("state", "delta", "error")
        return {
            name: [text for text in socket.texts if json.loads(text)["type"] in kept]
            for name, socket in (("seat0", seats[0]), ("seat1", seats[1]), ("spectator", spectator))
        }

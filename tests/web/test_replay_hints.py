"""A replay's odds are each step's own, from the seat's view then (issue 25 §4.3): never the end's."""

from __future__ import annotations

from codecrack.web.hints import provider

from .wsclient import HUMAN, bearer, create, replay_frames, seated

RANDOM = {"kind": "ai", "agent": "random"}


def test_each_replay_step_has_the_odds_the_seat_saw_then(client):
    made = create(client, "coda", [HUMAN, RANDOM], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as me:
        me.play_to_the_end(lambda view: view["legal_actions"][0])
    me_token = bearer(made["token"])
    frames = replay_frames(client.get, made["code"], me_token)
    hints = [
        client.get(f"/api/tables/{made['code']}/replay/{step}/hint", headers=me_token).json()
        for step in (1, len(frames) - 1)
    ]
    assert [h["hint"] for h in hints] == [provider("coda")(frames[1]), provider("coda")(frames[-1])]
    assert hints[0]["hint"] != hints[1]["hint"]
    assert client.get(f"/api/tables/{made['code']}/replay/9999/hint", headers=me_token).status_code == 400
    assert client.get(f"/api/tables/{made['code']}/replay/1/hint").status_code == 400  # a spectator has no odds

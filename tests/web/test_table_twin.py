"""An action is tried on the live game's twin, not on a fresh copy of the whole game: the twin
must stay exactly the live game, through accepted, refused and unstorable actions."""

import json
import random

from fastapi.testclient import TestClient

import codecrack
from codecrack.web.app import create_app
from codecrack.web.refusals import NOT_STORED

from .conftest import fast_config
from .faults import Faults
from .wsclient import HUMAN, create


def same_game(one, other) -> bool:
    return (
        one is not other
        and json.dumps(one.record()) == json.dumps(other.record())
        and all(json.dumps(one.view(seat)) == json.dumps(other.view(seat)) for seat in [None, *range(one.players)])
    )


def test_the_twin_stays_the_live_game_through_a_whole_coda_game(tmp_path):
    with TestClient(create_app(fast_config(tmp_path))) as client:
        hub = client.app.state.hub
        code = create(client, "coda", [HUMAN, HUMAN])["code"]
        table, rng, faults = hub.live[code], random.Random(7), Faults(hub.engine)
        while not table.game.over:
            seat = rng.choice(sorted(table.game.awaited))
            legal = table.game.view(seat)["legal_actions"]
            assert client.portal.call(table.submit, seat, {"type": "nonsense"}) is not None
            if rng.random() < 0.1:
                faults.fail("INSERT INTO actions")
                assert client.portal.call(table.submit, seat, legal[0]) == NOT_STORED
            assert client.portal.call(table.submit, seat, rng.choice(legal)) is None
            assert table.ahead is None or same_game(table.ahead, table.game)
        assert hub.store.moves(code) == table.game.record()["actions"]
        assert codecrack.replay(table.row.record(hub.store.moves(code))).result == table.game.result

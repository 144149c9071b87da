"""``GET /api/tables/{code}/review``: a seated player's review of a finished game."""

from __future__ import annotations

import random

from codecrack.review import review_record
from codecrack.review.numbering import tiles_counted_from

from .test_bot_budget import counting_sandbox_calls
from .wsclient import HUMAN, bearer, create, seated


def finished_coda(client):
    rng = random.Random(2)
    made = create(client, "coda", [HUMAN, {"kind": "ai", "agent": "medium"}], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as me:
        me.play_to_the_end(lambda view: rng.choice(view["legal_actions"]))
    return made


def test_a_player_gets_the_review_of_their_own_decisions(client):
    made = finished_coda(client)
    response = client.get(f"/api/tables/{made['code']}/review", headers=bearer(made["token"]))
    assert response.status_code == 200
    review = response.json()
    assert review["seat"] == 0 and review["finished"] and review["decisions"]
    store = client.app.state.hub.store  # a finished table nobody watches is not kept loaded
    record = store.table(made["code"]).record(store.moves(made["code"]))
    with tiles_counted_from(1):  # as the table page numbers a row's tiles
        assert review == {"code": made["code"], **review_record(record, 0).to_json()}
    assert client.get(f"/api/tables/{made['code']}/review", headers=bearer(made["token"])).json() == review


def test_the_texts_name_seats_and_tiles_from_1_as_the_table_page_while_the_seat_field_stays_the_engines(client):
    made = finished_coda(client)
    review = client.get(f"/api/tables/{made['code']}/review", headers=bearer(made["token"])).json()
    guesses = [d["did"] for d in review["decisions"] if d["kind"] == "guess"]
    assert review["seat"] == 0 and guesses
    assert all("on seat 2's tile " in text and not text.endswith("tile 0") for text in guesses)


def test_no_review_before_the_end_for_spectators_or_unknown_tables(client):
    made = create(client, "coda", [HUMAN, HUMAN], sit=0)
    unfinished = client.get(f"/api/tables/{made['code']}/review", headers=bearer(made["token"]))
    assert unfinished.status_code == 400 and "once it is over" in unfinished.json()["detail"]
    assert client.get("/api/tables/ZZZZZ/review").status_code == 404
    done = finished_coda(client)
    spectator = client.get(f"/api/tables/{done['code']}/review")
    assert spectator.status_code == 400 and "only a player" in spectator.json()["detail"]
    assert client.get(f"/api/tables/{done['code']}/review", headers=bearer("forged")).status_code == 400


def test_a_review_is_made_one_decision_a_worker_call_each_within_a_steps_budget(client, monkeypatch):
    """The server admits options by the cost of one step (an AI move, a hint, one decision reviewed).
    Before: the whole review was one call under that one step's budget, and the review of a long game
    on the largest allowed Alphabet Code sheet was refused past its 5 s of CPU (CI of 7333395)."""
    made = finished_coda(client)
    calls = counting_sandbox_calls(client, monkeypatch)
    response = client.get(f"/api/tables/{made['code']}/review", headers=bearer(made["token"]))
    assert response.status_code == 200
    store = client.app.state.hub.store
    record = store.table(made["code"]).record(store.moves(made["code"]))
    assert len(calls) == sum(actor == 0 for actor, _ in record["actions"]) > 1

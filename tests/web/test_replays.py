"""Replays come in bounded pages, built off the event loop, rate-limited per address; a finished
table that is not loaded is not played again for every plain GET (issue 24 §2)."""

import threading

import orjson
import pytest
from fastapi.testclient import TestClient

from codecrack.web import hub as hub_module
from codecrack.web import replays
from codecrack.web.app import create_app

from .conftest import fast_config
from .wsclient import HUMAN, RANDOM, bearer, create, replay_frames, seated, view_at


def finished(client, target=40, seats=(RANDOM, RANDOM), **body):
    made = create(client, "toy", list(seats), options={"target": target}, **body)
    with seated(client, made["code"], made.get("token")) as watcher:
        watcher.play_to_the_end(lambda view: view["legal_actions"][0])
    return made


@pytest.fixture
def paged(tmp_path):
    config = fast_config(tmp_path, replay_page_frames=5, max_replay_bytes=16 * 1024, replays_per_minute=1000)
    with TestClient(create_app(config)) as test_client:
        yield test_client


def test_a_replay_comes_in_pages_of_at_most_the_page_size(paged):
    """Before: one answer held every frame of the game (111.6 MB for a 951-step game)."""
    code = finished(paged)["code"]
    first = paged.get(f"/api/tables/{code}/replay").json()
    assert first["start"] == 0 and len(first["frames"]) == 5 and first["steps"] > 10
    record = paged.app.state.hub.live.get(code) or None
    frames = replay_frames(paged.get, code)
    assert len(frames) == first["steps"]
    stored = paged.portal.call(paged.app.state.hub.find, code).game.record()
    assert record is None and frames == [view_at(stored, step, None) for step in range(len(frames))]


def test_a_seat_replays_its_own_view_page_by_page(paged):
    made = finished(paged, seats=(HUMAN, RANDOM), sit=0)
    assert "token" in made
    page = paged.get(f"/api/tables/{made['code']}/replay?start=3&count=2", headers=bearer(made["token"])).json()
    stored = paged.portal.call(paged.app.state.hub.find, made["code"]).game.record()
    assert page["seat"] == 0 and page["start"] == 3
    assert page["frames"] == [view_at(stored, 3, 0), view_at(stored, 4, 0)]


def test_a_page_stops_at_the_byte_limit_but_holds_at_least_one_frame(paged, monkeypatch):
    code = finished(paged)["code"]
    one = len(orjson.dumps(paged.get(f"/api/tables/{code}/replay?count=1").json()["frames"][0]))
    stored = paged.portal.call(paged.app.state.hub.find, code).game.record()
    body = orjson.loads(replays.replay_page(stored, None, 0, 5, max_bytes=2 * one + 2))
    assert len(body["frames"]) == 2
    assert len(orjson.loads(replays.replay_page(stored, None, 0, 5, max_bytes=1))["frames"]) == 1


def test_a_start_past_the_end_is_refused(paged):
    code = finished(paged)["code"]
    steps = paged.get(f"/api/tables/{code}/replay").json()["steps"]
    assert paged.get(f"/api/tables/{code}/replay?start={steps - 1}").status_code == 200
    assert paged.get(f"/api/tables/{code}/replay?start={steps}").status_code == 400
    assert paged.get(f"/api/tables/{code}/replay?start=-1").status_code == 400


def test_pages_are_built_in_their_own_thread(paged, monkeypatch):
    code = finished(paged)["code"]
    threads = []
    build = replays.replay_page

    def watched(*args):
        threads.append(threading.current_thread().name)
        return build(*args)

    monkeypatch.setattr(replays, "replay_page", watched)
    assert paged.get(f"/api/tables/{code}/replay").status_code == 200
    assert threads and threads[0].startswith("codecrack-replay")


def test_replay_pages_are_limited_per_address(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, replays_per_minute=3))) as client:
        code = finished(client)["code"]
        assert [client.get(f"/api/tables/{code}/replay").status_code for _ in range(4)] == [200, 200, 200, 429]


def test_a_finished_table_is_not_played_again_for_each_plain_get(client, monkeypatch):
    """Before: every GET of an unloaded finished table replayed its whole record (75-87 ms for a
    long Alphabet Code game)."""
    code = finished(client)["code"]
    assert code not in client.app.state.hub.live
    replayed = []
    play_again = hub_module.replay
    monkeypatch.setattr(hub_module, "replay", lambda record: replayed.append(1) or play_again(record))
    for _ in range(5):
        assert client.get(f"/api/tables/{code}").json()["over"]
    assert len(replayed) <= 1

"""``/metrics`` (issue 29 §2): a real Prometheus from Debian's package scrapes a real server while
a short game is played, and answers a rate of accepted actions and a latency quantile over it; no
series carries a table's code, a name or a token; the writer's queue depth and its store errors
show what happens to the writes; ``CODECRACK_METRICS=false`` turns it off."""

from __future__ import annotations

import json

import httpx
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from codecrack.loadtest.target import codecrack_server, websocket_base
from codecrack.web.app import create_app

from ..cluster.players import Player
from ..cluster.services import GUARD, wait_until
from ..web.conftest import fast_config
from ..web.faults import Faults
from .prometheus import PrometheusServer
from .test_health import creating_a_table

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}
SETTINGS = {"CODECRACK_AI_PACE": "0", "CODECRACK_TABLE_INFO_INTERVAL": "0"}


def play_a_game(url: str, name: str) -> tuple[str, list[str]]:
    made = httpx.post(
        f"{url}/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN, RANDOM], "sit": 0, "name": name}
    ).json()
    other = httpx.post(f"{url}/api/tables/{made['code']}/join", json={"seat": 1, "name": name + "2"}).json()
    tokens = [made["token"], other["token"]]
    players = [Player(url, made["code"], token, seed=i) for i, token in enumerate(tokens)]
    for player in players:
        player.start()
    for player in players:
        player.finish()
    return made["code"], tokens


def refused_once(url: str, code: str, token: str) -> None:
    """One action the game refuses: a move at a table whose game is over."""
    with connect(f"{websocket_base(url)}/ws/{code}") as socket:
        socket.send(json.dumps({"type": "hello", "token": token}))
        socket.send(json.dumps({"type": "action", "action": {"type": "pass"}}))
        while json.loads(socket.recv(timeout=30))["type"] != "error":
            pass


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_prometheus_scrapes_a_rate_of_actions_over_a_short_game():
    with codecrack_server(None, **SETTINGS) as server:
        target = server.url.removeprefix("http://")
        with PrometheusServer([target]) as prometheus:
            wait_until(lambda: prometheus.query('up{job="codecrack"} == 1'), "prometheus scrapes the server")
            code, tokens = play_a_game(server.url, "Zelda")
            illegal = ("codecrack_actions_total", (("outcome", "illegal"),))
            before = samples(httpx.get(f"{server.url}/metrics").text).get(illegal, 0.0)
            refused_once(server.url, code, tokens[0])
            rate = 'sum(rate(codecrack_actions_total{outcome="accepted"}[1m]))'
            wait_until(lambda: any(float(r["value"][1]) > 0 for r in prometheus.query(rate)), "a rate of actions")
            p99 = "histogram_quantile(0.99, sum by (le) (rate(codecrack_action_commit_seconds_bucket[1m])))"
            wait_until(lambda: prometheus.query(p99), "a commit latency quantile")
            batches = prometheus.query("sum(codecrack_writer_batch_size_count)")
            assert float(batches[0]["value"][1]) > 0
        text = httpx.get(f"{server.url}/metrics").text
    found = samples(text)
    assert found[("codecrack_actions_total", (("outcome", "accepted"),))] > 0
    assert found[("codecrack_action_broadcast_seconds_count", ())] > 0
    assert found[illegal] == before + 1  # counted by the refusal's kind
    assert found[("codecrack_bot_decision_seconds_count", ())] > 0
    assert ("codecrack_live_tables", ()) in found and ("codecrack_sockets", (("kind", "seated"),)) in found
    assert ("codecrack_event_loop_lag_seconds_count", ()) in found
    for secret in [code, code.lower(), "Zelda", *tokens]:
        assert secret not in text


def test_metrics_can_be_turned_off():
    with codecrack_server(None, CODECRACK_METRICS="false") as server:
        assert httpx.get(f"{server.url}/metrics").status_code == 404


def test_the_writers_queue_depth_and_its_store_errors_are_scraped(tmp_path):
    """A table's first write held in the database: the queue depth shows it waiting, then 0 once
    it is committed; a write the database refuses counts one store error (and its request gets 503)."""
    depth = ("codecrack_writer_queue_depth", ())
    errors = ("codecrack_store_errors_total", ())
    with TestClient(create_app(fast_config(tmp_path)), raise_server_exceptions=False) as client:

        def scraped() -> dict[tuple[str, tuple], float]:
            return samples(client.get("/metrics").text)

        faults = Faults(client.app.state.hub.engine)
        held = faults.hold("INSERT INTO tables")
        with creating_a_table(client) as created:
            try:
                assert held.reached.wait(GUARD)
                assert scraped()[depth] >= 1
            finally:
                held.release()
        assert created == [200]
        wait_until(lambda: scraped()[depth] == 0, "the queue is empty")
        before = scraped()[errors]
        faults.fail("INSERT INTO tables")
        assert client.post("/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN]}).status_code == 503
        assert scraped()[errors] == before + 1

"""`codecrack loadtest` against a server it spawns: the report's shape and valid game ends.
No timing assertions: the figures depend on the machine."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import time
import urllib.request
import weakref

import pytest
from sqlalchemy import func, select

from codecrack.loadtest import LoadSettings
from codecrack.loadtest.shares import LAG_INTERVAL, LoopLag, collector_paused, play_share
from codecrack.loadtest.target import TargetError, codecrack_server
from codecrack.web.store import make_engine, players, rated_games, rating_changes, ratings


def test_a_short_run_against_a_spawned_server_reports_every_figure_and_valid_games():
    command = [
        sys.executable,
        "-m",
        "codecrack",
        "loadtest",
        "--spawn",
        "--tables",
        "2,3",
        "--games",
        "1",
        "--seconds",
        "240",
        "--ai-seats",
        "1",
    ]
    environ = {**os.environ, "CODECRACK_AI_PACE": "0"}  # the spawned server inherits it: bots move at once
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=environ)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)

    assert report["target"] == "codecrack" and report["spawned"] and report["pace"] == "flat"
    assert [step["tables"] for step in report["steps"]] == [2, 3]
    for step in report["steps"]:
        assert step["errors"] == 0, step["error_messages"]
        assert step["games"] == {
            "valid": step["tables"],
            "invalid": 0,
            "cut_at_time_limit": 0,
            "rated": 0,  # guests: never rated
            "invalid_detail": [],
        }
        assert step["all_games_valid"]
        assert step["actions"] > 0 and step["actions_per_second"] > 0
        assert set(step["latency_ms"]) == {"p50", "p95", "p99", "max"}
        assert all(value > 0 for value in step["latency_ms"].values())
        assert set(step["server"]) == {
            "pid",
            "cpu_seconds",
            "cpu_percent",
            "cpu_ms_per_action",
            "rss_mb",
            "peak_rss_mb",
        }
        assert step["server"]["rss_mb"] > 0 and step["server"]["cpu_seconds"] > 0
        assert step["load_generator"]["processes"] == 1 and step["load_generator"]["cpu_seconds"] > 0
    assert set(report["summary"]) == {
        "best_actions_per_second_at_p95_le_100ms",
        "most_sockets_at_p99_le_100ms_0_errors",
    }


def test_tables_opened_before_the_clock_starts_are_played_to_valid_ends():
    command = [
        sys.executable,
        "-m",
        "codecrack",
        "loadtest",
        "--spawn",
        "--tables",
        "2",
        "--games",
        "1",
        "--seconds",
        "240",
        "--ai-seats",
        "1",
        "--open-first",
    ]
    environ = {**os.environ, "CODECRACK_AI_PACE": "0"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=environ)
    assert done.returncode == 0, done.stderr[-3000:]
    (step,) = json.loads(done.stdout)["steps"]
    assert step["errors"] == 0, step["error_messages"]
    assert step["games"]["valid"] == 2 and step["actions"] > 0


def seated_sockets(url: str) -> int:
    """The server's seated websockets, from its metrics."""
    with urllib.request.urlopen(f"{url}/metrics", timeout=30) as answer:
        (line,) = [
            row for row in answer.read().decode().splitlines() if row.startswith('codecrack_sockets{kind="seated"}')
        ]
    return int(float(line.split()[-1]))


def test_with_open_first_every_socket_is_seated_before_the_clock_starts(tmp_path):
    """The clock starts once every player's socket is open and has its seat's state (thousands of
    handshakes begun with the clock outran the client's own event loop: docs/benchmarks.md)."""
    seen: list[int] = []
    with codecrack_server(f"sqlite:///{tmp_path}/load.db", CODECRACK_AI_PACE="0") as server:
        settings = LoadSettings(url=server.url, tables=[3], games=1, seconds=240, open_first=True)

        async def ready() -> None:
            seen.append(await asyncio.to_thread(seated_sockets, server.url))

        share = asyncio.run(play_share(settings, server.url, [0, 1, 2], ready))
    assert seen == [6]  # 3 tables of 2 human seats
    assert share.tally.errors == {} and share.tally.games_valid == 3


def run_report(*options: str) -> dict:
    command = [
        sys.executable,
        "-m",
        "codecrack",
        "loadtest",
        "--spawn",
        "--seconds",
        "240",
        "--ai-seats",
        "1",
        *options,
    ]
    environ = {**os.environ, "CODECRACK_AI_PACE": "0"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=environ)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_tables_shared_among_client_processes_are_each_played_once_and_counted_together():
    (step,) = run_report("--tables", "3", "--games", "1", "--client-processes", "2")["steps"]
    assert step["errors"] == 0, step["error_messages"]
    assert step["games"]["valid"] == 3 and step["games"]["cut_at_time_limit"] == 0
    assert step["actions"] > 0 and step["latency_ms"]["p99"] > 0
    assert step["load_generator"]["processes"] == 2 and step["load_generator"]["cpu_seconds"] > 0
    assert set(step["load_generator"]["loop_lag_ms"]) == {"p50", "p99", "max"}
    assert set(step["machine"]) == {"cpu_percent", "others_cpu_percent"} and step["machine"]["cpu_percent"] > 0


def test_as_accounts_signed_in_through_the_api_the_tables_are_rated_and_every_rating_changes(tmp_path):
    db = f"sqlite:///{tmp_path}/load.db"
    report = run_report("--tables", "2", "--games", "1", "--accounts", "--db", db)
    (step,) = report["steps"]
    assert report["accounts"] and step["errors"] == 0, step["error_messages"]
    assert step["games"]["valid"] == 2 and step["games"]["rated"] == 2
    with make_engine(db).connect() as conn:
        assert conn.execute(select(func.count()).select_from(rated_games)).scalar_one() == 2
        people = conn.execute(
            select(rating_changes.c.mu_before, rating_changes.c.mu_after, players.c.handle).join(
                players, players.c.id == rating_changes.c.player_id
            )
        ).all()
        assert len(people) == 4 and len({p.handle for p in people}) == 4  # two accounts a table, each its own
        assert all(p.mu_before != p.mu_after for p in people)
        stored = conn.execute(select(ratings.c.games)).scalars().all()
        assert sorted(stored) == [1, 1, 1, 1]


def test_games_that_end_within_the_warm_up_count_as_ends_but_their_actions_do_not():
    (step,) = run_report("--tables", "2", "--games", "1", "--warmup", "3000")["steps"]
    assert step["games"]["valid"] == 2 and step["errors"] == 0
    assert step["actions"] == 0 and step["latency_ms"]["p50"] is None


@pytest.mark.parametrize("url", ["http://10.0.0.1:8000", "http://192.168.1.5", "http://example.com:80"])
def test_a_url_off_loopback_is_refused(url):
    with pytest.raises(TargetError, match="not a loopback address"):
        LoadSettings(url=url).check()


def test_more_sockets_than_the_server_allows_per_address_are_refused():
    with pytest.raises(ValueError, match="exceed the server's 32 per address"):
        LoadSettings(tables=[17]).check()


def test_the_command_refuses_a_remote_url_without_touching_it():
    done = subprocess.run(
        [sys.executable, "-m", "codecrack", "loadtest", "--url", "http://10.0.0.1:8000"], capture_output=True, text=True
    )
    assert done.returncode == 2 and "not a loopback address" in done.stdout + done.stderr


def test_the_anchor_needs_its_harness_folder_installed(tmp_path):
    from codecrack.loadtest.anchor import run_anchor

    with pytest.raises(TargetError, match="npm ci"):
        run_anchor(tmp_path, [1], 1.0, 1, (0.0, 0.0), 0)


class Node:
    """An object that can sit in a reference cycle."""

    partner: Node | None = None


@pytest.mark.parametrize("enabled", [True, False])
def test_a_client_process_plays_with_the_garbage_collector_paused_then_collects(enabled):
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with collector_paused():
            assert not gc.isenabled()
            node = Node()
            node.partner = node
            gone = weakref.ref(node)
            del node
            assert gone() is not None  # no collection while the share plays
        assert gc.isenabled() == enabled and gone() is None
    finally:
        (gc.enable if was else gc.disable)()


def test_the_clients_loop_lag_is_sampled_after_the_warm_up_and_shows_a_blocked_loop():
    async def blocked() -> list[float]:
        lag = LoopLag()
        sampling = asyncio.create_task(lag.sample(after=2 * LAG_INTERVAL))
        await asyncio.sleep(LAG_INTERVAL)
        time.sleep(4 * LAG_INTERVAL)  # within the warm-up: not sampled
        await asyncio.sleep(3 * LAG_INTERVAL)
        counted = len(lag.lags)
        time.sleep(4 * LAG_INTERVAL)  # a client busy for that long
        await asyncio.sleep(2 * LAG_INTERVAL)
        sampling.cancel()
        return lag.lags[counted:]

    lags = asyncio.run(blocked())
    assert max(lags) >= 3 * LAG_INTERVAL  # the sleep it was in woke at least that late

"""Whole-protocol leak test for Coda: two tables that differ only in what one seat may not know
(the pairs of ``tests/coda/pairs.py``: other values, which tile is a dash, where a dash was put,
the deal order) send that seat's websocket byte-identical messages, message for message: the
whole view it is greeted with and every delta after it.

Each pair is planned with the engine (the same steering as the engine-level test), then played
through two servers, every seat a human on its own websocket. The only thing normalised is the
clock's ``remaining`` seconds, which measures the test's own speed.
"""

from __future__ import annotations

import json
import re
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from codecrack.games.coda import rules
from codecrack.protocol.deltas import followed
from codecrack.web import hub as hub_module
from codecrack.web.app import create_app
from tests.coda.pairs import SKIP, Case, Run, relabelled_set, run_pair
from tests.coda.test_leaks import OPTION_SETS

from .conftest import fast_config

REMAINING = re.compile(r'"remaining": ?[0-9.]+')


def web_cases() -> list[Case]:
    """A dozen pairs over 2-4 players that between them take every option value."""
    cases = []
    for n in range(12):
        options = OPTION_SETS[(n * 23 + 5) % len(OPTION_SETS)] | ({"dashes": True} if n % 3 else {})
        cases.append(Case(2 + n % 3, seed=500 + n, options=options, seat=n % 2, plan_seed=n, timeouts=False))
    return cases


def planned(case: Case) -> Run:
    """The pair's steps as the engine steers them (checking the views on the way); a few seeds
    are tried for a pair that stays together at least a dozen steps."""
    for attempt in range(6):
        run = run_pair(
            Case(case.players, case.seed + 1000 * attempt, case.options, case.seat, case.plan_seed, timeouts=False),
            tiers=(),
        )
        if len(run.steps) >= 12:
            return run
    return run


def watched_messages(tmp_path, run: Run, which: int) -> list[str]:
    """Play one table of the pair (``which`` 0: A, 1: B) and return every message the watching
    seat's websocket received, as sent, up to the answer to a closing ping."""
    case = run.case
    with ExitStack() as stack:
        patch = stack.enter_context(pytest.MonkeyPatch.context())
        patch.setattr(hub_module, "new_code", lambda: "PAIRS")
        if which:
            patch.setattr(rules, "full_set", relabelled_set(run.swaps))
        config = fast_config(tmp_path / f"table{which}", allow_seed=True)  # a local test server
        client = stack.enter_context(TestClient(create_app(config)))
        client.post(
            "/api/tables",
            json={
                "game": "coda",
                "seats": [{"kind": "human"}] * case.players,
                "options": case.options,
                "seed": case.seed,
            },
        )
        tokens = [
            client.post("/api/tables/PAIRS/join", json={"seat": seat}).json()["token"] for seat in range(case.players)
        ]
        log: list[str] = []
        sockets = []

        def read_until(done, seat: int = case.seat) -> None:
            while True:
                text = sockets[seat].receive_text()
                if seat == case.seat:
                    log.append(REMAINING.sub('"remaining": 0', text))
                if done(json.loads(text)):
                    return

        for token in tokens:  # one after the other, each greeted before the next connects
            sockets.append(stack.enter_context(client.websocket_connect("/ws/PAIRS")))
            sockets[-1].send_text(json.dumps({"type": "hello", "token": token}))
            read_until(lambda m: m["type"] == "state", len(sockets) - 1)
        watcher = sockets[case.seat]
        step = 0
        for mover, *actions in run.steps:
            if actions[which] is SKIP:
                continue
            sockets[mover].send_text(json.dumps({"type": "action", "action": actions[which]}))
            step += 1
            read_until(lambda m: m["type"] in ("state", "delta") and m["step"] == step)
        watcher.send_text(json.dumps({"type": "ping"}))
        read_until(lambda m: m["type"] == "pong")
        return log


@pytest.mark.parametrize("case", web_cases(), ids=str)
def test_a_seats_websocket_cannot_tell_apart_games_that_differ_only_in_what_it_may_not_know(tmp_path, case):
    run = planned(case)
    assert len(run.steps) >= 12
    first, second = (watched_messages(tmp_path, run, which) for which in (0, 1))
    assert len(first) == len(second), f"{run.case} {run.swaps}: {len(first)} messages != {len(second)}"
    assert sum(json.loads(text)["type"] == "delta" for text in first) >= 12  # every step came as a delta
    for (one, one_over), (other, other_over) in zip(with_ends(first), with_ends(second)):
        if one_over:  # the end reveals every tile: only the unfinished views must agree
            assert other_over, f"{run.case} {run.swaps}: one game ended, not the other"
            continue
        assert one == other, f"{run.case} {run.swaps}"


def with_ends(texts: list[str]) -> list[tuple[str, bool]]:
    """Each message, and whether the view followed through it (whole views and deltas) is finished."""
    step, view, marked = -1, None, []
    for text in texts:
        message = json.loads(text)
        if message["type"] in ("state", "delta"):
            step, view = followed(view, step, message)
        marked.append((text, view is not None and view["result"] is not None))
    return marked

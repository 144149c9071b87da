"""Hints and reviews run in worker processes, each call within a budget of memory and CPU time
(codecrack/web/sandbox.py, issue 24 §1): a call past it is refused and its worker ended, and the
next call gets a new worker. Without the budget, the greedy call below takes the memory it asks
for and the spinning one never returns."""

from __future__ import annotations

import threading
import time

import pytest

from codecrack.i18n import current, language
from codecrack.web.sandbox import MB, Budget, Closed, OverBudget, Sandbox

from .sandbox_work import greedy, greedy_hint, greedy_review, spin
from .wsclient import HUMAN, RANDOM, bearer, create, seated


@pytest.fixture
def sandbox():
    made = Sandbox(Budget(memory_bytes=64 * MB, cache_bytes=0, cpu_seconds=0.5, wall_seconds=300))
    yield made
    made.close()


def test_a_call_runs_in_a_worker_in_the_callers_language(sandbox):
    with language("th"):
        assert sandbox.call(current) == "th"
    assert sandbox.call(greedy, 16) == 16 * MB  # within the budget
    with pytest.raises(ValueError):
        sandbox.call(int, "not a number")  # the work's own error reaches the caller
    assert len(sandbox.workers) == 1  # this thread's worker served them all


def test_a_call_past_the_memory_budget_is_refused_and_the_next_one_runs(sandbox):
    with pytest.raises(OverBudget) as refused:
        sandbox.call(greedy, 512)
    assert refused.value.kind == "memory" and not sandbox.workers  # its worker was ended
    assert "64 MB" in refused.value.text()
    assert sandbox.call(greedy, 16) == 16 * MB  # a new worker


def test_a_call_past_the_cpu_budget_is_refused_and_the_next_one_runs(sandbox):
    with pytest.raises(OverBudget) as refused:
        sandbox.call(spin)
    assert refused.value.kind == "time" and not sandbox.workers
    assert sandbox.call(len, [1, 2]) == 2


def test_a_call_that_waits_past_the_wall_clock_backstop_is_ended():
    sandbox = Sandbox(Budget(memory_bytes=64 * MB, cache_bytes=0, cpu_seconds=5, wall_seconds=0.5))
    try:
        with pytest.raises(OverBudget) as refused:
            sandbox.call(time.sleep, 600)  # no CPU time: only the wall clock stops it
        assert refused.value.kind == "time" and not sandbox.workers
    finally:
        sandbox.close()


def test_a_hint_or_review_past_the_budget_is_refused_and_the_table_plays_on(client, monkeypatch):
    monkeypatch.setattr("codecrack.web.hints.provider", lambda game: greedy_hint)
    monkeypatch.setattr("codecrack.web.review_routes.review_step_for_the_page", greedy_review)
    monkeypatch.setattr("codecrack.web.review_routes.reviewer_for", lambda game, seat: None)  # the toy game has none
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"target": 3, "first": 0})
    with seated(client, made["code"], made["token"]) as me:
        me.ws.send_json({"type": "hint"})
        refused = me.until(lambda m: m["type"] in ("hint", "error"))
        assert refused["type"] == "error" and "512 MB" in refused["message"]
        me.play_to_the_end(lambda view: {"type": "add", "amount": 1})  # the table plays on
    review = client.get(f"/api/tables/{made['code']}/review", headers=bearer(made["token"]))
    assert review.status_code == 400 and "512 MB" in review.json()["detail"]
    assert client.get("/healthz").status_code == 200


def test_closing_the_sandbox_during_calls_ends_them_cleanly():
    """A server shutting down closes the sandbox while threads wait for their workers: each waiting
    call is refused as closed, and closing never fails (CI of 85342f8: a worker's pipe was closed by
    both the call and the sandbox at once, ``OSError: [Errno 9] Bad file descriptor``)."""
    for _ in range(12):
        sandbox = Sandbox(Budget(memory_bytes=64 * MB, cache_bytes=0, cpu_seconds=5, wall_seconds=300))
        refusals: list[BaseException] = []

        def waiting_call() -> None:
            try:
                sandbox.call(time.sleep, 600)
            except BaseException as error:
                refusals.append(error)

        threads = [threading.Thread(target=waiting_call) for _ in range(2)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while len(sandbox.workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        sandbox.close()  # raises nothing
        for thread in threads:
            thread.join(60)
        assert [type(error) for error in refusals] == [Closed, Closed]

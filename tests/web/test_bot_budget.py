"""A heavy table's bot moves run in the sandbox's worker processes (codecrack/web/sandbox.py, issue
24 §1): off the server's GIL and within the budget of memory and CPU time; a move past it is cut off
and replaced by the seed's legal move, so the table plays on. The heavy tables' worker keeps the
tables it built, so a hint after a bot's move reads the bot's table instead of building its own
(§1: the first hint on a large sheet took 45-50 s). A hint or review refused for its budget is
remembered: asked again, it is refused at once, without running again."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from codecrack.agents import make_agent
from codecrack.core.agent import Agent
from codecrack.core.lru import WORK_CACHE
from codecrack.core.registry import new_game
from codecrack.core.runner import next_actor
from codecrack.games.alphacode.agents import EasySolver
from codecrack.games.alphacode.hints import hint
from codecrack.web.app import create_app
from codecrack.web.bots import Bots

from .conftest import fast_config
from .sandbox_work import greedy_hint, greedy_review
from .wsclient import HUMAN, RANDOM, bearer, create, seated

GUARD = 300.0  # seconds before bots that do not move fail the test (a hang guard, not a timing claim)
SPIN = 30.0  # CPU seconds a spinning agent spins before it moves (far past the budget below)
EASY = {"kind": "ai", "agent": "easy"}
MEDIUM = {"kind": "ai", "agent": "medium"}


class Recorded(Agent):
    """An agent (``inner``, else an easy solver) that writes down the process it moves in, and with
    ``spin`` first spins in the code phase (``spun`` written once it is through)."""

    def __init__(self, path: Path, spin: bool = False, inner: Agent | None = None) -> None:
        super().__init__(seed=1)
        self.inner, self.path, self.spin = inner or EasySolver(seed=1), path, spin

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        if self.spin and view["phase"] == "code":
            started = time.thread_time()
            while time.thread_time() - started < SPIN:
                pass
            self.note("spun")
        self.note(str(os.getpid()))
        return self.inner.act(view)

    def note(self, line: str) -> None:
        with self.path.open("a") as notes:
            notes.write(line + "\n")


def heavy_server(tmp_path, **settings) -> TestClient:
    """A server where every Alphabet Code table is heavy (the default sheet's moves cost 0.07 s)."""
    return TestClient(create_app(fast_config(tmp_path, heavy_work_seconds=0.0, **settings)))


@pytest.fixture
def heavy(tmp_path):
    with heavy_server(tmp_path) as client:
        yield client


def recorded_bots(monkeypatch, notes: Path, spinning: set[int] = frozenset()) -> None:
    monkeypatch.setattr(Bots, "agent", lambda bots, table, seat, tier: Recorded(notes, spin=seat in spinning))


def eventually(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + GUARD
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {GUARD:.0f} s")
        time.sleep(0.05)


def test_a_heavy_tables_bot_moves_are_made_in_a_worker_process(heavy, monkeypatch, tmp_path):
    """Before: every move was made in the server's own process."""
    notes = tmp_path / "moves"
    recorded_bots(monkeypatch, notes)
    create(heavy, "alphacode", [EASY, EASY])
    eventually(lambda: notes.exists() and len(notes.read_text().split()) >= 6, "six bot moves")
    assert str(os.getpid()) not in notes.read_text().split()


def test_a_light_tables_bot_moves_are_made_in_a_worker_process_too(client, monkeypatch, tmp_path):
    """Before (89dfcad): Coda's and The Coding's bots thought in the server's threads, where they held
    its GIL from the event loop (73 % of the server's samples in `bench ai-share`'s Coda flood)."""
    notes = tmp_path / "moves"
    monkeypatch.setattr(
        Bots, "agent", lambda bots, table, seat, tier: Recorded(notes, inner=make_agent("easy", "coda", seed=seat))
    )
    made = create(client, "coda", [EASY, EASY])
    assert not client.app.state.hub.bots.work.is_heavy(client.app.state.hub.live[made["code"]].game)
    eventually(lambda: notes.exists() and len(notes.read_text().split()) >= 6, "six bot moves")
    assert str(os.getpid()) not in notes.read_text().split()


def test_a_light_tables_bots_play_as_the_same_agents_would_alone(tmp_path):
    """A bot's agent goes to a worker with the view and comes back with the move, its random
    generator moved on: the table's game is the one its seeded agents play on their own, move for
    move (a turn-based game: where seats move at once, which decision arrives first decides)."""
    options = {"first": 0, "target": 30}
    with TestClient(create_app(fast_config(tmp_path, allow_seed=True))) as client:
        made = create(client, "toy", [RANDOM, RANDOM], seed=7, options=options)
        eventually(lambda: client.get(f"/api/tables/{made['code']}").json()["over"], "the end of the game")
        played = client.app.state.hub.live[made["code"]].game.record()["actions"]
    game = new_game("toy", players=2, seed=7, **options)
    agents = {seat: make_agent("random", "toy", seed=7 * 31 + seat) for seat in range(2)}
    while not game.over:
        seat = next_actor(game, agents)
        game.apply(seat, agents[seat].act(game.view(seat)))
    assert played == game.record()["actions"]
    assert len({action["amount"] for _, action in played}) > 1  # the agents' choices, not one rule


def test_a_bot_move_past_the_budget_is_cut_off_and_the_table_plays_on(tmp_path, monkeypatch):
    """Before: the move ran in a server thread for as long as it took (here 30 s of CPU; without a
    bound, forever) and was played."""
    notes = tmp_path / "moves"
    recorded_bots(monkeypatch, notes, spinning={0})
    with heavy_server(tmp_path, work_seconds=1.0) as client:
        made = create(client, "alphacode", [EASY, HUMAN], sit=1, options={"first": 0})
        with seated(client, made["code"], made["token"]) as me:
            me.act({"type": "random_code"})
            me.until_view(lambda view: view["phase"] == "play" and bool(view["legal_actions"]))  # the bot moved on
    assert not notes.exists() or "spun" not in notes.read_text().split()  # cut off: the seed's code instead


def kept_then_hint(view: dict[str, Any]) -> dict[str, Any]:
    """The worker's kept tables as the hint starts, then the hint."""
    kept = [str(key) for key in WORK_CACHE.keys()]
    return {"kept": kept, **hint(view)}


def test_a_hint_after_a_bots_move_reads_the_table_the_bot_built(heavy, monkeypatch):
    """Before: the hint's worker built the sheet's table of codes again (on 10 letters, 13 x 7: 45-50 s
    on a busy machine), the bot's being in the server's own cache."""
    monkeypatch.setattr("codecrack.web.hints.provider", lambda game: kept_then_hint)
    made = create(heavy, "alphacode", [HUMAN, MEDIUM], sit=0, options={"first": 1})
    with seated(heavy, made["code"], made["token"]) as me:
        me.act({"type": "random_code"})
        me.until_view(lambda view: view["phase"] == "play" and bool(view["legal_actions"]))  # the bot asked
        me.ws.send_json({"type": "hint"})
        answer = me.until(lambda m: m["type"] in ("hint", "error"))
    assert answer["type"] == "hint", answer
    assert str(("space", 10, 13, 5, False)) in answer["hint"]["kept"]


def counting_sandbox_calls(client: TestClient, monkeypatch) -> list[Any]:
    sandbox = client.app.state.hub.bots.work.sandbox
    calls: list[Any] = []
    call = sandbox.call

    def counted(work, *args):
        calls.append(work)
        return call(work, *args)

    monkeypatch.setattr(sandbox, "call", counted)
    return calls


def test_a_hint_or_review_refused_for_its_budget_is_refused_again_at_once(client, monkeypatch):
    """Before: asked again, it ran again in a new worker (and was refused again)."""
    monkeypatch.setattr("codecrack.web.hints.provider", lambda game: greedy_hint)
    monkeypatch.setattr("codecrack.web.review_routes.review_step_for_the_page", greedy_review)
    monkeypatch.setattr("codecrack.web.review_routes.reviewer_for", lambda game, seat: None)  # the toy game has none
    calls = counting_sandbox_calls(client, monkeypatch)
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"target": 3, "first": 0})
    with seated(client, made["code"], made["token"]) as me:
        for _ in range(2):
            me.ws.send_json({"type": "hint"})
            refused = me.until(lambda m: m["type"] in ("hint", "error"))
            assert refused["type"] == "error" and "512 MB" in refused["message"]
        me.play_to_the_end(lambda view: {"type": "add", "amount": 1})
    for _ in range(2):
        review = client.get(f"/api/tables/{made['code']}/review", headers=bearer(made["token"]))
        assert review.status_code == 400 and "512 MB" in review.json()["detail"]
    assert calls.count(greedy_hint) == 1 and calls.count(greedy_review) == 1

"""The AI's work has a known, bounded cost: options whose AI, hints and reviews would need more than
the server's budget are refused with a 400 that names the limit, and the largest allowed Alphabet
Code sheet plays, hints and reviews within the budget while another table plays on."""

import json
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from codecrack.bench import run_benchmark
from codecrack.bench.hardening import descendants
from codecrack.bench.movecost import declared
from codecrack.core.lru import ByteLRU
from codecrack.core.options import server_only
from codecrack.core.registry import game_class
from codecrack.games.alphacode.solver import MEASURED_CODES, solver_cost
from codecrack.loadtest.target import codecrack_server
from codecrack.web.config import WebConfig
from codecrack.web.work import MB

GUARD = 600.0  # seconds before a hung game fails the test (a hang guard, not a timing claim)
BUILT_IN_THE_SERVER_MB = 246  # the server's peak above its start in the test below when its bots built the table


def alphacode(client, sit=None, **options):
    seats = [{"kind": "human"} if sit == 0 else {"kind": "ai", "agent": "easy"}, {"kind": "ai", "agent": "easy"}]
    body = {"game": "alphacode", "options": options, "seats": seats, "takeover": "easy"}
    return client.post("/api/tables", json=body if sit is None else {**body, "sit": sit})


@pytest.mark.parametrize(
    "options, named",
    [
        ({"letters": 20, "columns": 25, "rows": 13}, "never measured"),  # took a 3 GB server to 2.5 GB in 8 s
        ({"letters": 10, "columns": 21, "rows": 5}, "about 663 MB"),  # 5.3 million codes
    ],
)
def test_options_too_big_for_the_work_budget_are_refused_naming_the_limit(client, options, named):
    """Before: 201, and two easy bots on 20 letters, 25 x 13 went on to exhaust the server's memory."""
    answer = alphacode(client, **options)
    assert answer.status_code == 400, answer.text
    assert named in answer.json()["detail"] and "512 MB and 5 s" in answer.json()["detail"]
    assert client.get("/api/tables").json() == []


def test_every_allowed_setup_was_measured_and_fits_the_default_budget():
    config = WebConfig(db_url="sqlite://")
    allowed = [setup for setup in MEASURED_CODES if solver_cost(*setup)[0] <= config.work_memory_mb * MB]
    assert (10, 13, 7) in allowed and (20, 13, 5) in allowed and (10, 21, 5) not in allowed
    assert all(solver_cost(*setup)[1] <= config.work_seconds for setup in allowed)


@pytest.mark.parametrize("game", ["coda", "coding"])
def test_every_option_of_coda_and_the_coding_is_measured_by_move_cost_or_named_as_not_read(game):
    """Their bots think in the server's threads, not cut off: what lets them is that their cost was
    measured for every option set a client may choose (``codecrack bench move-cost``). A new
    option must join the measured ones (every value) or say why no move's work depends on it."""
    model = game_class(game).Options
    cost = declared(game)
    chosen = {name for name in model.model_fields if not server_only(model, name)}
    assert chosen == set(cost.read) | set(cost.unread) and not set(cost.read) & set(cost.unread)
    for name, values in cost.read.items():
        for value in values:
            model(**{name: value})  # each value measured is one a client may choose
        annotation = model.model_fields[name].annotation
        if annotation is bool or getattr(annotation, "__origin__", None) is not None:
            assert set(values) == set(getattr(annotation, "__args__", (False, True)))


@pytest.mark.parametrize("game", ["coda", "coding"])
def test_coda_and_the_codings_dearest_move_was_measured_well_under_the_default_budget(game):
    """A quarter of the CPU budget and a hundredth of its memory at most: why their moves, unlike
    Alphabet Code's heavy tables', need no cut-off while they run (docs/security.md)."""
    config = WebConfig(db_url="sqlite://")
    peak_mb, cpu_seconds = declared(game).dearest
    assert 0 < peak_mb <= config.work_memory_mb / 100 and 0 < cpu_seconds <= config.work_seconds / 4


def test_move_cost_reports_the_dearest_move_of_every_option_set():
    report = run_benchmark("move-cost", game="coding", players="2", memory="true")
    read = declared("coding").read
    assert report["sets"] == len(read["mode"]) * len(read["notes"])
    assert all(row["players"] == 2 and row["decisions"] for row in report["by_set"])
    assert 0 < report["dearest_cpu_s"] and 0 < report["peak_mb"]


def test_the_cache_of_tables_is_bounded_by_bytes():
    cache = ByteLRU(budget=100)
    for key in range(10):
        cache.get(key, lambda: bytes(30), len)
    assert cache.held <= 100 and cache.keys() == [7, 8, 9]


def peak_rss_mb(pid: int) -> float:
    return int(status_kib(pid, "VmHWM")) / 1024


def rss_mb(pid: int) -> float:
    return int(status_kib(pid, "VmRSS")) / 1024


def wait_over(http: httpx.Client, code: str) -> dict:
    deadline = time.monotonic() + GUARD
    while time.monotonic() < deadline:
        table = http.get(f"/api/tables/{code}").json()
        if table["over"]:
            return table
        time.sleep(0.2)
    raise AssertionError(f"table {code} did not finish within {GUARD} s")


@pytest.mark.long
def test_the_largest_allowed_sheet_plays_hints_and_reviews_within_the_memory_budget():
    """10 letters on 13 x 7 (3.2 million codes, the costliest allowed): a seat's hint, two easy bots
    (the takeover plays the seat once it leaves) and the seat's review, while a Coda table of
    bots plays on; the server's peak memory stays within its own size plus the work budget, and
    below the table of codes' own cost, as the bots move in a worker (before: 246 MB above start)."""
    settings = {"CODECRACK_AI_PACE": "0", "CODECRACK_DISCONNECT_TIMEOUT": "0.05"}
    with codecrack_server(**settings) as server, httpx.Client(base_url=server.url, timeout=GUARD) as http:
        before = rss_mb(server.pid)
        made = alphacode(http, sit=0, letters=10, columns=13, rows=7).json()
        with connect(f"{server.url.replace('http', 'ws')}/ws/{made['code']}", open_timeout=GUARD) as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            ws.send(json.dumps({"type": "action", "action": {"type": "random_code"}}))
            hint = None
            while hint is None:
                ws.send(json.dumps({"type": "hint"}))
                message = json.loads(ws.recv(timeout=GUARD))
                while message["type"] != "hint":
                    message = json.loads(ws.recv(timeout=GUARD))
                hint = message["hint"]
            assert hint["candidates"] > 1_000_000
        light = http.post(
            "/api/tables",
            json={"game": "coda", "seats": [{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}]},
        ).json()
        assert wait_over(http, light["code"])["over"]
        assert wait_over(http, made["code"])["over"]
        review = http.get(f"/api/tables/{made['code']}/review", headers={"Authorization": f"Bearer {made['token']}"})
        assert review.status_code == 200, review.text
        assert review.json()["decisions"]
        config = WebConfig(db_url="sqlite://")
        assert peak_rss_mb(server.pid) <= before + config.work_memory_mb + config.work_cache_mb
        # The bots moved in the heavy tables' worker: the server never built the sheet's table.
        assert peak_rss_mb(server.pid) - before < BUILT_IN_THE_SERVER_MB / 2
        capped = [pid for pid in descendants(server.pid) if address_space_cap(pid) is not None]
        assert capped  # the hint and the review ran in a worker process, its address space capped
        for pid in capped:
            assert int(status_kib(pid, "VmPeak")) * 1024 <= address_space_cap(pid)


def status_kib(pid: int, key: str) -> str:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(line.split()[1] for line in status.splitlines() if line.startswith(key + ":"))


def address_space_cap(pid: int) -> int | None:
    """The process's soft ``RLIMIT_AS`` in bytes (None: unlimited)."""
    line = next(line for line in Path(f"/proc/{pid}/limits").read_text().splitlines() if "address space" in line)
    soft = line.split()[3]
    return None if soft == "unlimited" else int(soft)

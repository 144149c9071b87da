"""``codecrack bench players``: how fast a profile, a history page and a leaderboard answer on a
big database (issue 27 §4; docs/benchmarks.md).

It fills a database (``-o db=URL``, SQLite or PostgreSQL; kept, so that a second run reuses it)
with ``-o players=N`` accounts and ``--games M`` finished, rated Coda games of 2 to 4 of them,
spread over 60 days, players drawn with a skew (3 seats in 10 go to the 1% of regulars), then asks one
instance (the app in this process, through its HTTP routes) for random players' profiles and
history pages and every game's leaderboard, and for the busiest player's profile, and reports each
kind's median and p95 in milliseconds, and where each request's time went (this process's CPU,
its threads' time waiting for a core, the rest).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from statistics import median, quantiles
from types import SimpleNamespace
from typing import Any

import httpx
from sqlalchemy import JSON, Table, event, func, select
from sqlalchemy.engine import Connection

from ..web.migrate import upgrade
from ..web.store import (
    add_tallies,
    make_engine,
    now,
    players,
    rated_games,
    rating_changes,
    ratings,
    seat_tokens,
    tables,
    tallies,
)

BATCH = 5_000  # rows per insert
DAYS = 60  # the games are spread over this many days before now


def filled(db_url: str, count: int, games: int, seed: int) -> None:
    """The database at ``db_url`` up to date and holding the generated players and games (made
    once: a database that holds them already is kept).

    Each game's seats are dated with its end and counted in the tallies by the same rule as a
    game's end (:func:`~codecrack.web.store.tallies`), summed in memory and written once; the
    rows go in by ``COPY`` on PostgreSQL (1,000,000 games in minutes), in batches elsewhere (on
    SQLite with a 1 GB page cache and no syncing while it fills: the random seat tokens' index
    outgrows the default 2 MB cache and every insert then reads pages back)."""
    engine = make_engine(db_url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _filling_sqlite)
    upgrade(engine)
    with engine.connect() as db:
        if db.execute(select(func.count()).select_from(tables)).scalar_one() >= games:
            return
    rng = random.Random(seed)
    start = now() - timedelta(days=DAYS)
    with engine.begin() as db:
        write_rows(
            db,
            players,
            [
                {"name": f"p{i}", "handle": f"p{i}", "handle_key": f"p{i}", "created_at": start}
                for i in range(1, count + 1)
            ],
        )
    played: dict[tuple[int, int], int] = {}  # rated games of each player at each count (Coda: a rating per count)
    counted: dict[tuple[int, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for first in range(0, games, BATCH):
        rows: dict[str, list[dict[str, Any]]] = {"tables": [], "seats": [], "rated": [], "changes": []}
        for index in range(first, min(first + BATCH, games)):
            one_game(rng, index, count, start + timedelta(seconds=index * DAYS * 86400 / games), rows, played)
        ended = {table["code"]: table for table in rows["tables"]}
        for key, (games_played, won) in tallies(_seat_rows(rows["seats"], ended)).items():
            counted[key][0] += games_played
            counted[key][1] += won
        with engine.begin() as db:
            write_rows(db, tables, rows["tables"])
            write_rows(db, seat_tokens, rows["seats"])
            write_rows(db, rated_games, rows["rated"])
            write_rows(db, rating_changes, rows["changes"])
    mus = {rating: rng.gauss(25.0, 4.0) for rating in played}
    with engine.begin() as db:
        add_tallies(db, counted)
        write_rows(
            db,
            ratings,
            [
                {
                    "player_id": player,
                    "game": "coda",
                    "players": seats,
                    "mu": mus[player, seats],
                    "sigma": 2.0,
                    "games": played[player, seats],
                    "wins": played[player, seats] // 3,
                    "played_at": now() - timedelta(days=rng.uniform(0, DAYS)),
                }
                for player, seats in mus
            ],
        )


def _filling_sqlite(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.execute("PRAGMA cache_size=-1000000")  # in KiB: 1 GB
    dbapi_connection.execute("PRAGMA synchronous=OFF")  # a bench's database: a crash refills it


def _seat_rows(seats: list[dict[str, Any]], ended: dict[str, dict[str, Any]]) -> list[SimpleNamespace]:
    """The seats as :func:`~codecrack.web.store.tallies` reads them (with their table's game)."""
    return [
        SimpleNamespace(player_id=seat["player_id"], seat=seat["seat"], **_table_of(ended[seat["table_code"]]))
        for seat in seats
    ]


def _table_of(table: dict[str, Any]) -> dict[str, Any]:
    return {"game": table["game"], "seats": table["seats"], "result": table["result"]}


def write_rows(db: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (dicts with the same keys): by ``COPY`` on PostgreSQL, else in batches of
    the driver's own ``executemany``, each value made by its column type's bind processor (as
    SQLAlchemy's ``insert`` would store it, without its work per row)."""
    if not rows:
        return
    names = list(rows[0])
    if db.dialect.name != "postgresql":
        kinds = [table.c[name].type.dialect_impl(db.dialect) for name in names]
        made = [kind.bind_processor(db.dialect) or (lambda value: value) for kind in kinds]
        marks = ", ".join("?" if db.dialect.paramstyle == "qmark" else "%s" for _ in names)
        statement = f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({marks})"
        for first in range(0, len(rows), BATCH):
            values = [tuple(m(row[n]) for m, n in zip(made, names)) for row in rows[first : first + BATCH]]
            db.exec_driver_sql(statement, values)
        return
    json_names = {name for name in names if isinstance(table.c[name].type, JSON)}
    driver: Any = db.connection.driver_connection  # psycopg's own connection: its cursor copies
    cursor = driver.cursor()
    with cursor.copy(f"COPY {table.name} ({', '.join(names)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([json.dumps(row[n]) if n in json_names else row[n] for n in names])


def one_game(
    rng: random.Random, index: int, count: int, at: Any, rows: dict, played: dict[tuple[int, int], int]
) -> None:
    code = f"B{index:09d}"
    seats = rng.randint(2, 4)
    people: set[int] = set()
    while len(people) < seats:
        people.add(rng.randint(1, max(1, count // 100)) if rng.random() < 0.3 else rng.randint(1, count))
    winner = rng.randrange(seats)
    rows["tables"].append(
        {
            "code": code,
            "game": "coda",
            "players": seats,
            "seed": index,
            "options": {},
            "seats": [{"kind": "human", "agent": None, "name": ""}] * seats,
            "takeover": None,
            "created_at": at,
            "finished": True,
            "result": {"winners": [winner], "scores": None},
            "active_at": at,
        }
    )
    rows["rated"].append({"table_code": code, "game": "coda", "players": seats, "rated_at": at})
    for seat, player in enumerate(sorted(people, key=lambda _: rng.random())):
        played[player, seats] = played.get((player, seats), 0) + 1
        rows["seats"].append(
            {
                "token": secrets.token_hex(16),
                "table_code": code,
                "seat": seat,
                "name": f"p{player}",
                "player_id": player,
                "finished_at": at,
            }
        )
        mu = rng.gauss(25.0, 4.0)
        rows["changes"].append(
            {
                "table_code": code,
                "seat": seat,
                "player_id": player,
                "agent": None,
                "place": 1 if seat == winner else 2,
                "mu_before": mu,
                "sigma_before": 2.0,
                "mu_after": mu + (0.5 if seat == winner else -0.3),
                "sigma_after": 2.0,
                "games": played[player, seats],
            }
        )


SITE = "http://bench"


def players_benchmark(
    players: int = 100_000,
    games: int = 1_000_000,
    db: str = "sqlite:///build/bench-players.db",
    samples: int = 200,
    seed: int = 0,
) -> dict[str, Any]:
    began = time.perf_counter()
    filled(db, int(players), int(games), int(seed))
    fill_seconds = time.perf_counter() - began
    busiest, timings = asyncio.run(_measure(db, int(players), int(samples), random.Random(int(seed) + 1)))
    return {
        "benchmark": "players",
        "database": make_engine(db).dialect.name,
        "players": int(players),
        "games": int(games),
        "busiest_player_games": busiest.n,
        "fill_seconds": round(fill_seconds, 1),
        **{kind: spent_report(values) for kind, values in timings.items()},
    }


async def _measure(db: str, players: int, samples: int, rng: random.Random) -> tuple[Any, dict[str, list[Spent]]]:
    """Ask one instance's routes on this event loop (as a served instance's loop runs them: no
    test client's thread between the caller and the app)."""
    from ..web.app import create_app
    from ..web.config import WebConfig

    timings: dict[str, list[Spent]] = {"profile": [], "history": [], "leaderboard": [], "busiest_profile": []}
    app = create_app(WebConfig.model_validate({"db_url": db}))  # the other settings' defaults
    async with app.router.lifespan_context(app):
        with app.state.hub.engine.connect() as conn:
            busiest = conn.execute(
                select(seat_tokens.c.player_id, func.count().label("n"))
                .group_by(seat_tokens.c.player_id)
                .order_by(func.count().desc())
                .limit(1)
            ).one()
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=SITE) as client:

            async def timed(kind: str, path: str) -> None:
                cpu, queued = time.process_time(), run_queue_seconds()
                began = time.perf_counter()
                answer = await client.get(path)
                wall = time.perf_counter() - began
                timings[kind].append(Spent(wall, time.process_time() - cpu, run_queue_seconds() - queued))
                if answer.status_code != 200:
                    raise RuntimeError(f"{path}: {answer.status_code} {answer.text}")

            for _ in range(samples):
                handle = f"p{rng.randint(1, players)}"
                await timed("profile", f"/api/players/{handle}")
                await timed("history", f"/api/players/{handle}/games?page=2")
                await timed("leaderboard", "/api/leaderboards/coda")
            for _ in range(max(20, samples // 2)):
                await timed("busiest_profile", f"/api/players/p{busiest.player_id}")
    return busiest, timings


@dataclass(frozen=True)
class Spent:
    """Where one request's wall-clock time went, in seconds: this process's CPU (every thread), its
    threads' time ready to run but waiting for a core (the machine's load), and the rest (waiting
    on the database, sockets and hand-offs between threads)."""

    wall: float
    cpu: float
    queued: float


def run_queue_seconds() -> float:
    """The time this process's threads have spent ready to run but waiting for a core (Linux's
    ``/proc/self/task/*/schedstat``, second field, in nanoseconds)."""
    total = 0
    for task in Path("/proc/self/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError):  # a thread that ended meanwhile
            continue
    return total / 1e9


def spent_report(values: list[Spent]) -> dict[str, Any]:
    """Median and p95 of the wall-clock time, and the median of each part of it, in ms.

    >>> spent_report([Spent(0.010, 0.004, 0.005)] * 3 + [Spent(0.030, 0.006, 0.020)])["median_ms"]
    10.0
    """

    def ms(series: list[float]) -> tuple[float, float]:
        return round(1000 * median(series), 2), round(1000 * quantiles(series, n=20)[-1], 2)

    wall, cpu, queued = ([getattr(v, part) for v in values] for part in ("wall", "cpu", "queued"))
    other = [v.wall - v.cpu - v.queued for v in values]
    return {
        "median_ms": ms(wall)[0],
        "p95_ms": ms(wall)[1],
        "cpu_median_ms": ms(cpu)[0],
        "cpu_p95_ms": ms(cpu)[1],
        "waiting_for_a_core_median_ms": ms(queued)[0],
        "waiting_for_a_core_p95_ms": ms(queued)[1],
        "rest_median_ms": ms(other)[0],
        "rest_p95_ms": ms(other)[1],
    }


BENCHMARKS = {"players": players_benchmark}

"""The players benchmark (codecrack/bench/players.py) fills a database once and reports each
page's median and p95; found by name. A tiny size: the figures are in docs/benchmarks.md."""

import pytest
from sqlalchemy import func, select

from codecrack.bench import benchmarks
from codecrack.bench.players import players_benchmark
from codecrack.web.store import make_engine, player_tallies, rating_changes, seat_tokens, tables


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_players_benchmark_fills_once_and_reports_every_page(database, tmp_path, request):
    """On PostgreSQL the rows go in by COPY: the same rows, dated and counted as at a game's end."""
    url = request.getfixturevalue("postgres_url") if database == "postgresql" else f"sqlite:///{tmp_path}/bench.db"
    report = players_benchmark(players="30", games="50", db=url, samples="4")
    for kind in ("profile", "history", "leaderboard", "busiest_profile"):
        assert 0 < report[kind]["median_ms"] <= report[kind]["p95_ms"]
    with make_engine(url).connect() as db:
        counts = [db.execute(select(func.count()).select_from(t)).scalar_one() for t in (tables, seat_tokens)]
        assert (
            counts[0] == 50 and db.execute(select(func.count()).select_from(rating_changes)).scalar_one() == counts[1]
        )
        tallied = select(func.sum(player_tallies.c.played)).where(player_tallies.c.tier == "")
        assert db.execute(tallied).scalar_one() == counts[1]  # every seat's game counted, as at a game's end
        won = select(func.sum(player_tallies.c.won)).where(player_tallies.c.tier == "")
        assert db.execute(won).scalar_one() == 50  # one winner a game
        dated = (
            select(func.count())
            .select_from(seat_tokens.join(tables))
            .where(seat_tokens.c.finished_at == tables.c.active_at)
        )
        assert db.execute(dated).scalar_one() == counts[1]  # every seat dated with its game's end
    players_benchmark(players="30", games="50", db=url, samples="4")  # kept: not filled again
    with make_engine(url).connect() as db:
        assert db.execute(select(func.count()).select_from(tables)).scalar_one() == 50
    assert benchmarks()["players"] is players_benchmark

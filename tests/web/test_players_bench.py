"""The players benchmark (codecrack/bench/players.py) fills a database once and reports each
page's median and p95; found by name. A tiny size: the figures are in docs/benchmarks.md."""

from sqlalchemy import func, select

from codecrack.bench import benchmarks
from codecrack.bench.players import players_benchmark
from codecrack.web.store import make_engine, player_tallies, rating_changes, seat_tokens, tables


def test_the_players_benchmark_fills_once_and_reports_every_page(tmp_path):
    url = f"sqlite:///{tmp_path}/bench.db"
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
    players_benchmark(players="30", games="50", db=url, samples="4")  # kept: not filled again
    with make_engine(url).connect() as db:
        assert db.execute(select(func.count()).select_from(tables)).scalar_one() == 50
    assert benchmarks()["players"] is players_benchmark

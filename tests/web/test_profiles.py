"""Profiles and match history (codecrack/web/players/profile_routes.py): ratings and their course,
results against the AI tiers, every finished game a page at a time with filters, and nothing of an
unfinished game."""

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, insert, select, update

from codecrack.web.app import create_app
from codecrack.web.migrate import upgrade
from codecrack.web.players.identity import read
from codecrack.web.players.profile_routes import PAGE, history, profile
from codecrack.web.players.ratings import anchors, shown
from codecrack.web.store import (
    add_move,
    forfeit_table,
    make_engine,
    now,
    players,
    rated_games,
    rating_changes,
    ratings,
    seat_tokens,
    tables,
)

from .conftest import fast_config
from .test_accounts import account
from .test_ratings import RACE, both_seats, rated_toy, seat_two  # noqa: F401  (the toy game's rated preset)
from .wsclient import HUMAN, create

pytestmark = pytest.mark.usefixtures("rated_toy")
CODA_TIERS = anchors("coda", 2)  # a profile shows a tier's two-player anchor


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, tables_per_minute=100))) as test_client:
        yield test_client


@pytest.fixture
def browser(client):
    return TestClient(client.app)


def play(client, browser, options=RACE) -> int:
    """One game between the two accounts; returns the winner's seat (client is seat 0)."""
    code, tokens = seat_two(client, browser, options=options)
    with both_seats(client, code, tokens) as seats:
        winner = seats[0].view["turn"]
        seats[winner].act({"type": "add", "amount": 2})
        rated = client.get(f"/api/tables/{code}").json()["rated"]  # then wait for its ratings (they may come first)
        seats[0].until(lambda m: m["type"] == "rated" if rated else m["type"] == "table" and m["table"]["over"])
    return winner


def test_a_profile_shows_the_rating_its_course_and_the_latest_games(client, browser):
    account(client, "Ann")
    account(browser, "Bob")
    winners = [play(client, browser) for _ in range(3)]
    play(client, browser, options={**RACE, "first": 0})  # a casual game: in the history, not in the rating
    profile = client.get("/api/players/ANN").json()  # handles are found case-folded
    assert profile["handle"] == "Ann" and profile["played"] == 4
    [toy] = profile["ratings"]
    assert (toy["game"], toy["games"], toy["wins"], toy["provisional"]) == ("toy", 3, winners.count(0), True)
    assert len(toy["course"]) == 3 and toy["course"][-1] == toy["rating"]
    latest = profile["recent"][0]
    assert latest["rated"] is False and [(o["seat"], o["agent"]) for o in latest["opponents"]] == [(1, None)]
    rated = profile["recent"][1]
    assert rated["rated"] and rated["after"] == toy["rating"] and rated["before"] == toy["course"][-2]
    assert [g["won"] for g in profile["recent"][1:]] == [w == 0 for w in reversed(winners)]
    assert client.get("/api/players/nobody_here").status_code == 404


def test_the_history_pages_and_filters(client, browser):
    account(client, "Ann")
    account(browser, "Bob")
    winners = [play(client, browser, options={**RACE, "first": n % 2}) for n in range(PAGE + 1)]
    first = client.get("/api/players/ann/games").json()
    second = client.get("/api/players/ann/games", params={"page": 2}).json()
    assert (len(first["games"]), first["more"], len(second["games"]), second["more"]) == (PAGE, True, 1, False)
    won = client.get("/api/players/ann/games", params={"result": "won"}).json()["games"]
    assert len(won) == winners.count(0) and all(g["won"] for g in won)
    assert client.get("/api/players/ann/games", params={"opponents": "ai"}).json()["games"] == []
    assert (
        len(client.get("/api/players/ann/games", params={"opponents": "people", "game": "toy"}).json()["games"]) == PAGE
    )
    assert client.get("/api/players/ann/games", params={"game": "coda"}).json()["games"] == []
    for bad in ({"page": 0}, {"result": "drawn"}, {"opponents": "robots"}, {"game": "x" * 40}):
        assert client.get("/api/players/ann/games", params=bad).status_code == 400


def test_an_unfinished_game_changes_nothing_a_profile_or_history_shows(client, browser):
    account(client, "Ann")
    account(browser, "Bob")
    play(client, browser)
    before = client.get("/api/players/ann").text, client.get("/api/players/ann/games").text
    code, tokens = seat_two(client, browser, options={"target": 99})
    with both_seats(client, code, tokens) as seats:
        mover = seats[0].view["turn"]
        seats[mover].act({"type": "add", "amount": 1})
        seats[0].state_at(1)
    create(client, "toy", [HUMAN, HUMAN], sit=1, options=RACE)  # a seat taken, nothing played
    assert (client.get("/api/players/ann").text, client.get("/api/players/ann/games").text) == before


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    return f"sqlite:///{tmp_path}/counted.db" if request.param == "sqlite" else request.getfixturevalue("postgres_url")


def test_a_profile_and_its_history_are_counted_in_the_database(db_url):
    """The results against each AI tier and the count of games are tallies: those of the games
    finished before migration 0023 counted by it, each later one counted in its end's transaction
    (its last action or a forfeit), which also dates the player's seat (0024 dated the earlier
    ones): the latest games are read by that date; the history's filters are SQL over the tables'
    seats and results (JSON), on SQLite and on PostgreSQL alike."""
    ann, bob = 1, 2
    games = [  # (seats: a player id or an AI tier, winners, finished); Ann's latest game first
        ([ann, "hard", "hard"], [0], True),  # two seats of one tier: one game against it
        (["easy", ann], [0], True),
        ([bob, "easy", ann], [1, 2], True),  # a shared win
        ([ann, bob], [1], True),
        ([ann, "hard"], None, False),  # unfinished: not shown, not counted
        ([ann, "medium"], None, False),  # ended by its last action after the migration
        (["medium", ann], None, False),  # ended by a forfeit after the migration
    ]
    engine = make_engine(db_url)
    upgrade(engine, "0022")
    moment = now()
    with engine.begin() as db:
        for handle in ("Ann", "Bob"):
            db.execute(insert(players).values(name=handle, handle=handle, handle_key=handle.lower(), created_at=moment))
        for n, (seats, winners, finished) in enumerate(games):
            code = f"G{n}"
            at = moment - timedelta(hours=n)
            plan = [{"kind": "ai", "agent": s} if isinstance(s, str) else {"kind": "human"} for s in seats]
            db.execute(
                insert(tables).values(
                    code=code, game="coda", players=len(seats), seed=n, options={}, seats=plan,
                    created_at=at, finished=finished, active_at=at,
                    result={"winners": winners, "scores": None} if finished else None,
                )
            )  # fmt: skip
            for seat, who in enumerate(seats):
                if isinstance(who, int):
                    db.execute(
                        insert(seat_tokens).values(token=f"{code}{seat}", table_code=code, seat=seat, name="x", player_id=who)
                    )  # fmt: skip
    upgrade(engine)
    with engine.connect() as db:
        assert profile(db, "ann")["played"] == 4
    with engine.begin() as db:
        add_move(db, "G5", 0, 0, {"type": "x"}, {"winners": [0], "scores": None})
        forfeit_table(db, "G6", {"winners": [0], "scores": None, "forfeit": {"seats": [1], "kind": "time"}})
        ended = seat_tokens.c.table_code.in_(["G5", "G6"])
        assert all(db.execute(select(seat_tokens.c.finished_at).where(ended)).scalars())  # dated by their end
        db.execute(update(seat_tokens).where(ended).values(finished_at=moment - timedelta(days=1)))  # a tie: by code
    with engine.connect() as db:
        shown = profile(db, "ann")
        assert shown["played"] == 6 and [g["code"] for g in shown["recent"]] == ["G0", "G1", "G2", "G3", "G6", "G5"]
        assert shown["against_ai"] == [  # each tier with its fixed rating (the package's ratings-2.json)
            {"game": "coda", "tier": tier, "rating": round(CODA_TIERS[tier].mu * 60), "played": played, "won": won}
            for tier, played, won in [("easy", 2, 1), ("hard", 1, 1), ("medium", 2, 1)]
        ]
        bobs = profile(db, "bob")
        assert bobs["played"] == 2 and [(t["tier"], t["played"], t["won"]) for t in bobs["against_ai"]] == [
            ("easy", 1, 0)
        ]

        def listed(**filters) -> list[str]:
            options = {"page": 1, "game": None, "result": None, "opponents": None, **filters}
            return [g["code"] for g in history(db, "ann", **options)["games"]]

        assert listed(result="won") == ["G0", "G2", "G5"] and listed(result="lost") == ["G1", "G3", "G6"]
        assert listed(opponents="ai") == ["G0", "G1", "G6", "G5"] and listed(opponents="people") == ["G3"]
        assert listed(opponents="mixed") == ["G2"] and listed(opponents="mixed", result="lost") == []
        assert listed(game="coding") == [] and listed(page=2) == []
        assert listed(opponents="ai", result="won") == ["G0", "G5"]
    engine.dispose()


def test_a_profile_reads_every_ratings_course_in_one_statement(db_url):
    """A rating per player count (Coda) costs a profile no round trip of its own: Ann with three
    ratings and Bob with one are read in as many statements, each course its own, oldest first.
    A profile is three statements (the account with its tallies and ratings, the courses, the
    latest games with their seats' names), a history page one; through ``read`` on PostgreSQL
    no transaction is opened (a BEGIN and a ROLLBACK would be two more round trips)."""
    engine = make_engine(db_url)
    upgrade(engine)
    moment = now()
    with engine.begin() as db:
        for handle in ("Ann", "Bob"):
            db.execute(insert(players).values(name=handle, handle=handle, handle_key=handle.lower(), created_at=moment))
        for count, who in ((2, 1), (3, 1), (4, 1), (2, 2)):
            for n in (1, 2):
                rated_coda_win(db, f"R{count}{who}{n}", count, who, n, 10.0 * count + n, moment)
            db.execute(
                insert(ratings).values(
                    player_id=who, game="coda", players=count, mu=10.0 * count + 2, sigma=2.0, games=2, wins=2,
                    played_at=moment,
                )
            )  # fmt: skip
    statements = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    with engine.connect() as db:
        anns = profile(db, "ann")
        read_for_ann = len(statements)
        statements.clear()
        bobs = profile(db, "bob")
    assert len(statements) == read_for_ann == 3
    statements.clear()
    with engine.connect() as db:
        pages = [history(db, "ann", 1, None, None, None), history(db, "nobody", 1, None, None, None)]
    assert len(statements) == 2 and pages[0]["handle"] == "Ann" and pages[1] is None  # no seat: no game listed

    def in_a_transaction(db):
        profile(db, "ann")
        driver = db.connection.driver_connection
        return driver.in_transaction if db.dialect.name == "sqlite" else driver.info.transaction_status != 0  # 0: idle

    assert read(engine, in_a_transaction) is (engine.dialect.name != "postgresql")
    assert [(r["players"], r["course"]) for r in anns["ratings"]] == [
        (count, [shown(10.0 * count + 1), shown(10.0 * count + 2)]) for count in (2, 3, 4)
    ]
    assert [(r["players"], r["course"]) for r in bobs["ratings"]] == [(2, [shown(21.0), shown(22.0)])]
    engine.dispose()


def rated_coda_win(db, code, count, player_id, games, mu_after, moment):
    """A finished, rated Coda table of ``count`` human seats won by seat 0, the player's ``games``-th
    rated game of that count, its rating moving from 25 to ``mu_after``."""
    db.execute(
        insert(tables).values(
            code=code, game="coda", players=count, seed=games, options={}, seats=[{"kind": "human"}] * count,
            created_at=moment, finished=True, active_at=moment, result={"winners": [0], "scores": None},
        )
    )  # fmt: skip
    db.execute(insert(rated_games).values(table_code=code, game="coda", players=count, rated_at=moment))
    mu = {"mu_before": 25.0, "sigma_before": 2.0, "mu_after": mu_after, "sigma_after": 2.0}
    db.execute(insert(rating_changes).values(table_code=code, seat=0, player_id=player_id, place=1, games=games, **mu))


def test_each_course_reads_only_its_own_latest_games_of_the_index(db_url):
    """A Coda player's counts number their rated games each from 1, so a course that walked the
    (player, rated games) index from the top until it had 50 changes of its count read every other
    count's changes above them too (the busiest of 1,000,000 games: 471, 247 and 50 changes,
    docs/players.md). Each branch reads the window of its own latest 50 numbers only: here 6, 50
    and at most 100 entries (on main at 89dfcad: 182, 50 and 159), the courses the same."""
    engine = make_engine(db_url)
    upgrade(engine)
    moment = now()
    played = {2: 120, 3: 60, 4: 2}
    with engine.begin() as db:
        db.execute(insert(players).values(id=1, name="Ann", handle="Ann", handle_key="ann", created_at=moment))
        for count, games in played.items():
            for n in range(1, games + 1):
                rated_coda_win(db, f"R{count}{n:04d}", count, 1, n, 10.0 * count + n / 1000, moment)
            db.execute(
                insert(ratings).values(
                    player_id=1, game="coda", players=count, mu=10.0 * count, sigma=2.0, games=games, wins=1,
                    played_at=moment,
                )
            )  # fmt: skip
    statements: list[tuple[str, object]] = []
    event.listen(engine, "before_cursor_execute", lambda _c, _cur, sql, params, *_: statements.append((sql, params)))
    with engine.connect() as db:
        found = profile(db, "ann")
        [(courses, params)] = [(sql, params) for sql, params in statements if "mu_after" in sql and "UNION" in sql]
        if db.dialect.name == "postgresql":
            db.exec_driver_sql("SET enable_seqscan = off")  # tables this small would be read whole
            db.exec_driver_sql("SET enable_bitmapscan = off")
            [plan] = db.exec_driver_sql("EXPLAIN (ANALYZE, FORMAT JSON) " + courses, params).scalar_one()
            read = sorted(scanned(plan["Plan"], "rating_changes"))
            assert read[:2] == [6, 50] and read[2] <= 100, read  # 1-2 of each count; 71-120 of 2; 11-60 of 2, 3
        else:
            plan = "\n".join(row[-1] for row in db.exec_driver_sql("EXPLAIN QUERY PLAN " + courses, params))
            assert plan.count("(player_id=? AND games>? AND games<?)") == 3, plan  # each branch a window of the index
    engine.dispose()
    shown_course = {r["players"]: r["course"] for r in found["ratings"]}
    assert shown_course == {
        count: [shown(10.0 * count + n / 1000) for n in range(max(1, games - 49), games + 1)]
        for count, games in played.items()
    }


def scanned(node: dict, table: str) -> list[int]:
    """The rows each scan of ``table`` in a PostgreSQL JSON plan returned (all its loops)."""
    own = [node["Actual Rows"] * node["Actual Loops"]] if node.get("Relation Name") == table else []
    return own + [rows for child in node.get("Plans", []) for rows in scanned(child, table)]

"""Ratings (codecrack/web/players/ratings.py): which games count, the AI tiers as fixed anchors,
a leaver counting last, each finished game rated exactly once (two instances on PostgreSQL), and
the leaderboards."""

import asyncio
from contextlib import contextmanager
from datetime import timedelta

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import event, insert, select, text, update

from codecrack.agents.registry import tier_names
from codecrack.core.options import Preset
from codecrack.ratings import Rating
from codecrack.web.admin import forget
from codecrack.web.app import create_app
from codecrack.web.hub import Hub
from codecrack.web.migrate import MIGRATIONS, upgrade
from codecrack.web.players import rating_routes
from codecrack.web.players import ratings as ratings_module
from codecrack.web.players.identity import Player
from codecrack.web.players.profile_routes import finished_games, finished_rows, won
from codecrack.web.players.rating_routes import leaderboard
from codecrack.web.players.ratings import Rater, anchors, shown
from codecrack.web.store import make_engine, now, players, rated_games, rating_changes, ratings
from codecrack.web.turns import TurnPlan

from ..core.toy_game import ToyGame
from .conftest import fast_config
from .test_accounts import account
from .test_players import guest, rows
from .test_several_instances import run_two_instances
from .wsclient import HUMAN, RANDOM, create, seated

RACE = {"target": 2}  # the toy game's rated preset: the first to add 2 wins
MEASURED = anchors  # the packages' anchors (rated_toy stands in for them)
ANCHOR = Rating(mu=30.0, sigma=1.0, games=400)


@pytest.fixture(autouse=True)
def rated_toy(monkeypatch):
    """The toy game has one rated preset, and its ``random`` tier an anchor."""
    monkeypatch.setattr(ToyGame, "presets", (Preset("race", "Race", "First to 2", RACE),))
    monkeypatch.setattr(ratings_module, "anchors", lambda game, players: {"random": ANCHOR})
    ratings_module._rated_options.cache_clear()
    yield
    ratings_module._rated_options.cache_clear()


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("game", ["coda", "coding", "alphacode"])
def test_every_tier_of_every_game_has_its_anchor_at_each_player_count(game, count):
    measured = anchors(game, count)  # the package's ratings-N.json, as the arena wrote it
    assert set(measured) == set(tier_names(game))
    assert measured["random"].mu < min(measured[tier].mu for tier in ("easy", "medium", "hard"))
    assert all(rating.games > 0 for rating in measured.values())
    assert anchors(game, count) != anchors(game, 2 + count % 3)  # each count measured on its own


def test_a_count_past_the_measured_ones_takes_the_largest_measured():
    assert anchors("alphacode", 6) == anchors("alphacode", 4)


def test_a_two_player_game_against_an_ai_tier_uses_its_two_player_anchor(tmp_path, monkeypatch):
    monkeypatch.setattr(ratings_module, "anchors", MEASURED)  # the packages' anchors, not rated_toy's

    async def scenario() -> None:
        hub = Hub(fast_config(tmp_path))
        try:
            (ann,) = await accounts(hub, "Ann")
            table = await hub.create("coda", 2, {}, [HUMAN, {"kind": "ai", "agent": "hard"}])
            await hub.claim(table, 0, ann.name, ann)
            assert ratings_module.rated_setup(table.row)
            changes = await hub.writer.write(ratings_module.rate_table, table.row, [2, 1])  # the AI won
        finally:
            await hub.stop()
        two, four = MEASURED("coda", 2)["hard"], MEASURED("coda", 4)["hard"]
        assert two.mu != four.mu
        assert (changes[1].agent, changes[1].before, changes[1].after) == ("hard", two, two)
        assert changes[0].after.mu < changes[0].before.mu

    upgrade(make_engine(fast_config(tmp_path).db_url))
    asyncio.run(scenario())


@pytest.fixture
def browser(client):
    return TestClient(client.app)


def seat_two(client, browser, options=RACE, seats=(HUMAN, HUMAN)) -> tuple[str, dict[int, str]]:
    """A table made by ``client`` (seat 0) and joined by ``browser`` (seat 1): its code and tokens."""
    made = create(client, "toy", list(seats), sit=0, options=options)
    joined = browser.post(f"/api/tables/{made['code']}/join", json={"seat": 1})
    assert joined.status_code == 200, joined.text
    return made["code"], {0: made["token"], 1: joined.json()["token"]}


@contextmanager
def both_seats(client, code: str, tokens: dict[int, str]):
    with seated(client, code, tokens[0]) as ann, seated(client, code, tokens[1]) as bob:
        yield {0: ann, 1: bob}


def settle(client) -> None:
    """Wait for the ratings the server is writing."""

    async def rated(rater: Rater) -> None:
        await asyncio.gather(*rater.tasks)

    client.portal.call(rated, client.app.state.rater)


def test_two_accounts_playing_a_rated_preset_are_rated_once_and_told(client, browser):
    account(client, "Ann")
    account(browser, "Bob")
    code, tokens = seat_two(client, browser)
    assert client.get(f"/api/tables/{code}").json()["rated"] is True  # the lobby says so before the start
    with both_seats(client, code, tokens) as seats:
        winner = seats[0].view["turn"]
        seats[winner].act({"type": "add", "amount": 2})
        told = [seats[seat].until(lambda m: m["type"] == "rated")["changes"] for seat in (0, 1)]
    changes = told[0]
    assert told[1] == changes and [c["seat"] for c in changes] == [0, 1]
    assert all(c["before"] == shown(25.0) and c["provisional"] for c in changes)
    assert changes[winner]["after"] > changes[winner]["before"] > changes[1 - winner]["after"]
    assert client.get(f"/api/tables/{code}/ratings").json() == changes  # for an end screen opened later
    stored = rows(client, select(ratings.c.games, ratings.c.wins).order_by(ratings.c.player_id))
    assert stored == [{"games": 1, "wins": int(winner == 0)}, {"games": 1, "wins": int(winner == 1)}]


def test_a_guest_at_the_table_makes_it_casual(client, browser):
    account(client, "Ann")
    guest(browser, "Bob")
    code, tokens = seat_two(client, browser)
    with both_seats(client, code, tokens) as seats:
        seats[seats[0].view["turn"]].act({"type": "add", "amount": 2})
        seats[0].until(lambda m: m["type"] == "table" and m["table"]["over"])
    settle(client)
    assert client.get(f"/api/tables/{code}/ratings").json() == []
    assert rows(client, select(rated_games)) == rows(client, select(ratings)) == []


def test_a_table_seated_without_players_ends_with_no_lookup_of_players(client):
    """Seats taken with no player's session (no account, no guest): its end asks the database
    for no one to rate or notify (issue 26's load figures); with one player's session it does."""
    statements: list[str] = []
    engine = client.app.state.hub.engine
    listen = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listen)
    try:
        for signed_in in (False, True):
            statements.clear()
            if signed_in:
                account(client, "Ann")
            code, tokens = seat_two(client, TestClient(client.app))
            with both_seats(client, code, tokens) as seats:
                seats[seats[0].view["turn"]].act({"type": "add", "amount": 2})
                seats[0].until(lambda m: m["type"] == "table" and m["table"]["over"])
            settle(client)
            client.portal.call(asyncio.gather, *client.app.state.hub.notifier.tasks)
            # the notifier's seats to tell (seated_players), the rater's holders (rate_table); the
            # players' tallies (count_ended) stay in the finishing action's transaction
            asked = [s for s in statements if "seat_tokens.seat IN" in s or "JOIN players" in s]
            assert bool(asked) is signed_in, asked
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    assert client.get(f"/api/tables/{code}/ratings").json() == []  # one player and a guest: casual


@pytest.mark.parametrize(
    "options, seats, anchored",
    [
        ({"target": 3}, (HUMAN, HUMAN), True),  # not a preset
        ({**RACE, "first": 0}, (HUMAN, HUMAN), True),  # the first seat chosen, not drawn
        (RACE, (HUMAN, RANDOM), False),  # an AI without an anchor (as the research agents)
    ],
)
def test_other_setups_are_not_rated(client, monkeypatch, options, seats, anchored):
    if not anchored:
        monkeypatch.setattr(ratings_module, "anchors", lambda game, players: {})
    account(client, "Ann")
    code = create(client, "toy", list(seats), sit=0, options=options)["code"]
    assert client.get(f"/api/tables/{code}").json()["rated"] is False


def test_an_ai_tier_is_a_fixed_anchor(client, bots_wait):
    account(client, "Ann")
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, options=RACE)
    assert made["table"]["rated"] is True
    with seated(client, made["code"], made["token"]) as ann:
        bots_wait.set()  # the AI may move (and win) only once this seat listens
        acted = -1
        while not any(m["type"] == "rated" for m in ann.log):
            if ann.view["turn"] == 0 and ann.view["legal_actions"] and acted != ann.step:
                acted = ann.step
                ann.act({"type": "add", "amount": 2})
            ann.receive()
    stored = rows(client, select(rating_changes).order_by(rating_changes.c.seat))
    assert [(r["player_id"] is None, r["agent"]) for r in stored] == [(False, None), (True, "random")]
    ai = stored[1]
    assert (ai["mu_before"], ai["sigma_before"]) == (ai["mu_after"], ai["sigma_after"]) == (30.0, 1.0)
    assert stored[0]["mu_after"] != stored[0]["mu_before"]


async def accounts(hub: Hub, *handles: str) -> list[Player]:
    def make(db, handle):
        key = handle.lower()
        player_id = db.execute(
            insert(players).values(name=handle, handle=handle, handle_key=key, created_at=now())
        ).inserted_primary_key[0]
        return Player(player_id, handle, handle)

    return [await hub.writer.write(make, handle) for handle in handles]


async def rated_table(hub: Hub, people: list[Player]):
    table = await hub.create("toy", 2, dict(RACE), [HUMAN, HUMAN])
    for seat, person in enumerate(people):
        await hub.claim(table, seat, person.name, person)
    return table


def test_a_seat_taken_over_at_the_end_counts_last(tmp_path):
    async def scenario() -> None:
        hub = Hub(fast_config(tmp_path))
        try:
            rater = Rater(hub)
            table = await rated_table(hub, await accounts(hub, "Ann", "Bob"))
            mover = table.game.view(0)["turn"]
            table.taken_over.add(mover)  # it left; the takeover AI wins for it
            assert await table.submit(mover, {"type": "add", "amount": 2}) is None
            await asyncio.gather(*rater.tasks)
            with hub.engine.connect() as db:
                places = dict(db.execute(select(rating_changes.c.seat, rating_changes.c.place)).all())
            assert places == {mover: 2, 1 - mover: 1}
        finally:
            await hub.stop()

    upgrade(make_engine(fast_config(tmp_path).db_url))
    asyncio.run(scenario())


def test_a_seat_that_lost_on_time_counts_last_and_the_game_is_in_both_histories(tmp_path):
    async def scenario() -> None:
        hub = Hub(fast_config(tmp_path, turn_hour=3600.0))
        try:
            Rater(hub)
            people = await accounts(hub, "Ann", "Bob")
            table = await hub.create("toy", 2, dict(RACE), [HUMAN, HUMAN], turns=TurnPlan(1, on_lapse="lose"))
            for seat, person in enumerate(people):
                await hub.claim(table, seat, person.name, person)
            mover = table.waiting_on()[0]
            table.row.turn_deadline = now() - timedelta(minutes=1)  # its move's time ran out
            table.restart_turn(stored=True)

            def rated_places(db):
                return dict(db.execute(select(rating_changes.c.seat, rating_changes.c.place)).all())

            async with asyncio.timeout(60):  # the rating is written after the end
                while not (places := await asyncio.to_thread(hub.store.read, rated_places)):
                    await asyncio.sleep(0.01)
            assert table.over and places == {mover: 2, 1 - mover: 1}
            for seat, person in enumerate(people):  # each player's history lists it, won or lost
                (game,) = await asyncio.to_thread(hub.store.read, finished_rows, finished_games(person.id), 0, 10)
                assert (game.code, won(game)) == (table.code, seat != mover)
        finally:
            await hub.stop()

    upgrade(make_engine(fast_config(tmp_path).db_url))
    asyncio.run(scenario())


def test_a_finished_game_is_rated_once_across_instances(tmp_path, postgres_url):
    async def scenario(a: Hub, b: Hub) -> None:
        raters = Rater(a), Rater(b)
        people = await accounts(a, "Ann", "Bob")
        for _ in range(10):
            table = await rated_table(a, people)
            twin = await b.find(table.code)
            mover = table.game.view(0)["turn"]
            assert await table.submit(mover, {"type": "add", "amount": 2}) is None
            await twin.catch_up()  # b sees the end too
            # each instance's hook, and both again at once: four tries at rating the same game
            await asyncio.gather(raters[0].rate(table), raters[1].rate(twin), *raters[0].tasks, *raters[1].tasks)
        with a.engine.connect() as db:
            assert len(db.execute(select(rated_games.c.table_code)).all()) == 10
            assert len(db.execute(select(rating_changes.c.seat)).all()) == 20
            assert sorted(db.execute(select(ratings.c.games)).scalars()) == [10, 10]

    run_two_instances(tmp_path, postgres_url, scenario)


def test_the_leaderboard_lists_active_players_with_ten_games_and_the_viewers_rank(client):
    account(client, "Ann")
    me = rows(client, select(players.c.id))[0]["id"]

    def add(db):
        moment = now()
        for n in range(300):
            player_id = db.execute(
                insert(players).values(name=f"p{n}", handle=f"p{n}", handle_key=f"p{n}", created_at=moment)
            ).inserted_primary_key[0]
            games = 10 if n % 3 else 9  # every third has too few games
            played = moment - timedelta(days=31 if n % 5 == 0 else 1)  # every fifth is inactive
            db.execute(
                insert(ratings).values(
                    player_id=player_id,
                    game="toy",
                    players=0,
                    mu=20.0 + n / 10,
                    sigma=2.0,
                    games=games,
                    wins=1,
                    played_at=played,
                )
            )
        db.execute(
            insert(ratings).values(
                player_id=me, game="toy", players=0, mu=20.05, sigma=2.0, games=12, wins=3, played_at=moment
            )
        )

    with client.app.state.hub.engine.begin() as db:
        add(db)
    board = client.get("/api/leaderboards/toy").json()
    listed = [n for n in range(300) if n % 3 and n % 5]
    assert len(board["top"]) == 100
    assert [row["handle"] for row in board["top"]] == [f"p{n}" for n in sorted(listed, reverse=True)][:100]
    you = {
        "rank": len(listed) + 1,
        "handle": "Ann",
        "rating": shown(20.05),
        "provisional": False,
        "games": 12,
        "wins": 3,
    }
    assert board["you"] == you
    assert client.get("/api/leaderboards/nosuchgame").status_code == 404
    assert board["players"] is None and board["counts"] == []  # one board for every count
    refused = client.get("/api/leaderboards/toy", params={"players": 2})
    assert refused.status_code == 400 and "one leaderboard for every player count" in refused.text


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_leaderboard_walks_the_index_of_listed_ratings_in_one_statement(request, tmp_path, database, monkeypatch):
    """Its top is one statement, planned on the partial index of the ratings with 10 games or
    more (migration 0025), in its order: no sort, and no newcomer's rating read (at 1,000,000
    games the index of every rating read 5,700 entries for 100, docs/players.md); the viewer's
    entry and rank one more statement."""
    url = request.getfixturevalue("postgres_url") if database == "postgresql" else f"sqlite:///{tmp_path}/b.db"
    engine = make_engine(url)
    upgrade(engine)
    moment = now()
    with engine.begin() as db:
        for n in range(1, 41):
            db.execute(
                insert(players).values(id=n, name=f"p{n}", handle=f"p{n}", handle_key=f"p{n}", created_at=moment)
            )
            db.execute(
                insert(ratings).values(
                    player_id=n, game="toy", players=0, mu=20.0 + n % 7, sigma=2.0, games=5 + n % 10, wins=1,
                    played_at=moment,
                )
            )  # fmt: skip
    statements: list[tuple[str, object]] = []
    event.listen(engine, "before_cursor_execute", lambda _c, _cur, sql, params, *_: statements.append((sql, params)))
    with engine.connect() as db:
        board = leaderboard(db, "toy", 0, None)
        [(top, params)] = statements
        if database == "postgresql":
            db.execute(text("SET enable_seqscan = off"))  # a table this small would be read whole
            plan = "\n".join(db.exec_driver_sql("EXPLAIN " + top, params).scalars())
        else:
            plan = "\n".join(row[-1] for row in db.exec_driver_sql("EXPLAIN QUERY PLAN " + top, params))
        statements.clear()
        mine = leaderboard(db, "toy", 0, 3)  # p3: 8 games, not listed
    assert "ix_ratings_listed" in plan and "sort" not in plan.lower(), plan
    assert [row["handle"] for row in board["top"]][:3] == ["p6", "p27", "p5"]  # mu 26, 26, 25: the older first
    assert len(statements) == 2 and mine["you"]["rank"] is None and mine["you"]["games"] == 8  # its row, unranked
    monkeypatch.setattr(rating_routes, "TOP", 3)
    statements.clear()
    with engine.connect() as db:  # p39 (mu 24) below the top: 5 listed ratings above it
        assert leaderboard(db, "toy", 0, 39)["you"]["rank"] == 6
    assert len(statements) == 2
    engine.dispose()


def test_a_game_rated_per_player_count_keeps_a_rating_and_a_leaderboard_per_count(tmp_path, monkeypatch):
    monkeypatch.setattr(ToyGame, "rated_per_count", True)  # as Coda

    async def scenario() -> None:
        hub = Hub(fast_config(tmp_path))
        try:
            rater = Rater(hub)
            ann, bob, cay = await accounts(hub, "Ann", "Bob", "Cay")
            for people in ([ann, bob], [ann, bob, cay], [ann, bob]):
                table = await hub.create("toy", len(people), dict(RACE), [HUMAN] * len(people))
                for seat, person in enumerate(people):
                    await hub.claim(table, seat, person.name, person)
                assert await table.submit(table.game.view(0)["turn"], {"type": "add", "amount": 2}) is None
                await asyncio.gather(*rater.tasks)
            with hub.engine.connect() as db:
                kept = db.execute(select(ratings.c.player_id, ratings.c.players, ratings.c.games)).all()
                counts = db.execute(select(rated_games.c.players).order_by(rated_games.c.rated_at)).scalars().all()
            assert sorted(kept) == [(ann.id, 2, 2), (ann.id, 3, 1), (bob.id, 2, 2), (bob.id, 3, 1), (cay.id, 3, 1)]
            assert counts == [2, 3, 2]
        finally:
            await hub.stop()

    upgrade(make_engine(fast_config(tmp_path).db_url))
    asyncio.run(scenario())
    with TestClient(create_app(fast_config(tmp_path))) as client:
        account(client, "Dee")
        me = rows(client, select(players.c.id).where(players.c.handle == "Dee"))[0]["id"]
        with client.app.state.hub.engine.begin() as db:
            for count, mu in ((2, 30.0), (3, 20.0)):
                db.execute(
                    insert(ratings).values(
                        player_id=me, game="toy", players=count, mu=mu, sigma=2.0, games=10, wins=5, played_at=now()
                    )
                )
        two = client.get("/api/leaderboards/toy").json()  # the smallest count's board first
        three = client.get("/api/leaderboards/toy", params={"players": 3}).json()
        assert (two["players"], two["counts"], three["players"]) == (2, [2, 3], 3)
        assert [(r["handle"], r["rating"]) for r in two["top"]] == [("Dee", shown(30.0))]
        assert [(r["handle"], r["rating"]) for r in three["top"]] == [("Dee", shown(20.0))]
        assert client.get("/api/leaderboards/toy", params={"players": 4}).status_code == 400
        assert (two["you"]["rank"], three["you"]["rank"]) == (1, 1)
        with client.app.state.hub.engine.begin() as db:  # 9 games: not listed, the viewer still sees its rating
            db.execute(update(ratings).where(ratings.c.players == 3).values(games=9))
        three = client.get("/api/leaderboards/toy", params={"players": 3}).json()
        assert three["top"] == [] and three["you"] == {
            **{"rank": None, "handle": "Dee", "rating": shown(20.0), "provisional": True},
            **{"games": 9, "wins": 5},
        }
        profile = client.get("/api/players/dee").json()["ratings"]
        assert [(r["players"], r["rating"]) for r in profile] == [(2, shown(30.0)), (3, shown(20.0))]


def test_admin_forget_of_a_rated_account_keeps_the_others_ratings(tmp_path, postgres_url):
    """The operator's ``admin forget`` (admin.py) deletes the account: on PostgreSQL its ratings
    and rating changes must not hold the row back; the opponent's rating and history stay."""

    async def scenario(a: Hub, b: Hub) -> None:
        rater = Rater(a)
        people = await accounts(a, "Ann", "Bob")
        table = await rated_table(a, people)
        mover = table.game.view(0)["turn"]
        assert await table.submit(mover, {"type": "add", "amount": 2}) is None
        await asyncio.gather(*rater.tasks)
        assert forget(a.engine, "Ann") == {table.code}
        with a.engine.connect() as db:
            assert list(db.execute(select(players.c.handle)).scalars()) == ["Bob"]
            assert list(db.execute(select(ratings.c.player_id)).scalars()) == [people[1].id]
            kept = sorted(db.execute(select(rating_changes.c.player_id)), key=lambda row: row[0] is None)
            assert [row[0] for row in kept] == [people[1].id, None]

    run_two_instances(tmp_path, postgres_url, scenario)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_migration_keeps_a_coda_rating_under_the_count_of_its_latest_game(request, tmp_path, database):
    """Migration ..._ratings_per_count: each rated game gets its table's player count; a rating of
    a game now rated per count (Coda) moves to the count of the player's latest rated game of it,
    another game's stays whole (players 0)."""
    url = request.getfixturevalue("postgres_url") if database == "postgresql" else f"sqlite:///{tmp_path}/m.db"
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    [mine] = [
        r for r in ScriptDirectory.from_config(config).walk_revisions() if r.path.endswith("_ratings_per_count.py")
    ]
    engine = make_engine(url)
    upgrade(engine, mine.down_revision)
    moment = now()
    with engine.begin() as db:
        db.execute(text("INSERT INTO players (id, name, created_at) VALUES (1, 'Ann', :at)"), {"at": moment})
        for n, (game, count) in enumerate([("coda", 2), ("coda", 4), ("toy", 3)]):
            at = moment - timedelta(hours=3 - n)  # the 4-player Coda game is the latest Coda one
            db.execute(
                text(
                    "INSERT INTO tables (code, game, players, seed, options, seats, created_at, finished)"
                    " VALUES (:code, :game, :count, 0, '{}', '[]', :at, true)"
                ),
                {"code": f"M{n}", "game": game, "count": count, "at": at},
            )
            db.execute(
                text("INSERT INTO rated_games (table_code, game, rated_at) VALUES (:code, :game, :at)"),
                {"code": f"M{n}", "game": game, "at": at},
            )
            db.execute(
                text(
                    "INSERT INTO rating_changes (table_code, seat, player_id, place, mu_before, sigma_before,"
                    " mu_after, sigma_after, games) VALUES (:code, 0, 1, 1, 25, 8, 26, 7, 1)"
                ),
                {"code": f"M{n}"},
            )
        for game in ("coda", "toy"):
            db.execute(
                text(
                    "INSERT INTO ratings (player_id, game, mu, sigma, games, wins, played_at)"
                    " VALUES (1, :game, 26, 7, 2, 2, :at)"
                ),
                {"game": game, "at": moment},
            )
    upgrade(engine)
    with engine.connect() as db:
        assert sorted(db.execute(select(ratings.c.game, ratings.c.players, ratings.c.games)).all()) == [
            ("coda", 4, 2),
            ("toy", 0, 2),
        ]
        assert sorted(db.execute(select(rated_games.c.table_code, rated_games.c.players)).all()) == [
            ("M0", 2),
            ("M1", 4),
            ("M2", 3),
        ]
    engine.dispose()

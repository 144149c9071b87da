"""Quick match (issue 28 §2): players waiting for a game are seated together at a new table, once."""

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select, update

from codecrack.web.admin import forget
from codecrack.web.app import create_app
from codecrack.web.matching import near
from codecrack.web.players.identity import COOKIE
from codecrack.web.players.ratings import anchors
from codecrack.web.store import match_queue, now, player_sessions, ratings, seat_tokens

from .conftest import fast_config
from .wsclient import seated

SITE = "http://testserver"
TOY = {"game": "toy", "players": 2}
CALLS = 400  # calls a player makes at most before the test gives up on being seated


def sign_up(client: TestClient, name: str):
    """``client`` becomes a guest called ``name`` (asked from the site's own page): the answer."""
    answer = client.post("/api/me/guest", json={"name": name}, headers={"origin": SITE})
    assert answer.status_code == 200, answer.text
    return answer


class Guest:
    """A guest of its own on a client shared with others (its cookie and CSRF token sent by hand)."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        answer = sign_up(client, name)
        client.cookies.clear()
        self.headers = {
            "origin": SITE,
            "x-csrf-token": answer.json()["csrf"],
            "cookie": f"{COOKIE}={answer.cookies[COOKIE]}",
        }
        self.id = player_id(client)

    def match(self, body=TOY):
        return self.client.post("/api/match", json=body, headers=self.headers)

    def leave(self):
        return self.client.delete("/api/match", headers=self.headers)

    def until_seated(self, body=TOY) -> dict:
        for _ in range(CALLS):
            answer = self.match(body)
            assert answer.status_code == 200, answer.text
            if answer.json()["state"] == "seated":
                return answer.json()
        raise AssertionError(f"not seated after {CALLS} calls")


def player_id(client) -> int:
    """The latest guest's id."""
    with client.app.state.hub.engine.connect() as db:
        return db.execute(select(func.max(player_sessions.c.player_id))).scalar_one()


def queue(client) -> list[dict]:
    with client.app.state.hub.engine.connect() as db:
        return [dict(row) for row in db.execute(select(match_queue)).mappings()]


def owners(client, code: str) -> dict[int, int]:
    with client.app.state.hub.engine.connect() as db:
        rows = db.execute(select(seat_tokens.c.seat, seat_tokens.c.player_id).where(seat_tokens.c.table_code == code))
        return dict(rows.all())


@pytest.fixture
def server(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, match_calls_per_minute=1000))) as client:
        yield client


def test_two_waiting_players_are_seated_at_one_table(server):
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    first = ann.match().json()
    assert first["state"] == "waiting" and first["ai_after"] == 20.0
    bob_seat = bob.match().json()
    assert bob_seat["state"] == "seated"
    ann_seat = ann.match().json()
    assert ann_seat["state"] == "seated" and ann_seat["code"] == bob_seat["code"]
    assert {ann_seat["seat"], bob_seat["seat"]} == {0, 1}
    assert owners(server, ann_seat["code"]) == {ann_seat["seat"]: ann.id, bob_seat["seat"]: bob.id}
    table = server.get(f"/api/tables/{ann_seat['code']}").json()
    assert [s["name"] for s in table["seats"]] == (["Ann", "Bob"] if ann_seat["seat"] == 0 else ["Bob", "Ann"])
    with seated(server, ann_seat["code"], ann_seat["token"]) as socket:
        assert socket.log[0] == {"type": "hello", "seat": ann_seat["seat"], "table": socket.log[0]["table"]}
    assert queue(server) == []  # both told: the queue holds nothing of them


def test_a_seated_player_calling_again_waits_for_a_new_game_not_the_same_seat(server):
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    ann.match()
    code = bob.match().json()["code"]
    assert ann.match().json()["code"] == code
    assert ann.match().json()["state"] == "waiting"  # a new quick match, not a second seat at the first table
    assert len(owners(server, code)) == 2


def test_a_lone_player_is_told_how_long_they_waited_and_when_the_ai_is_offered(server):
    ann = Guest(server, "Ann")
    assert ann.match().json()["waited"] < 20.0
    with server.app.state.hub.engine.begin() as db:
        db.execute(update(match_queue).values(joined_at=now() - timedelta(seconds=25)))
    answer = ann.match().json()
    assert answer["state"] == "waiting" and answer["waited"] >= 25.0 and answer["ai_after"] == 20.0
    assert ann.match({"game": "coda", "players": 2}).json()["waited"] < 20.0  # another queue: waits anew


def test_queues_of_other_games_or_player_counts_do_not_mix(server):
    ann, bob, cay = Guest(server, "Ann"), Guest(server, "Bob"), Guest(server, "Cay")
    assert ann.match(TOY).json()["state"] == "waiting"
    assert bob.match({"game": "toy", "players": 3}).json()["state"] == "waiting"
    assert cay.match({"game": "coda", "players": 2}).json()["state"] == "waiting"
    assert len(queue(server)) == 3


def test_queues_of_other_presets_do_not_mix_and_the_table_has_the_presets_options(server):
    ann, bob, cay = Guest(server, "Ann"), Guest(server, "Bob"), Guest(server, "Cay")
    advanced = {"game": "coda", "players": 2, "preset": "advanced"}
    assert ann.match({"game": "coda", "players": 2}).json()["state"] == "waiting"  # the default: classic
    assert bob.match(advanced).json()["state"] == "waiting"
    seat = cay.match(advanced).json()
    assert seat["state"] == "seated" and bob.match(advanced).json()["code"] == seat["code"]
    assert server.get(f"/api/tables/{seat['code']}").json()["options"]["dashes"] is True
    assert [(row["player_id"], row["preset"]) for row in queue(server)] == [(ann.id, "classic")]
    assert bob.match({"game": "coda", "players": 2, "preset": "classic"}).json()["state"] == "seated"


def test_a_player_waits_in_one_queue_at_a_time(server):
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    ann.match(TOY)
    ann.match({"game": "toy", "players": 3})
    assert [(row["game"], row["players"]) for row in queue(server)] == [("toy", 3)]
    assert bob.match(TOY).json()["state"] == "waiting"  # Ann left the two-player queue


def test_a_player_who_left_is_not_seated(server):
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    ann.match()
    assert ann.leave().json() == {"state": "left"}
    assert bob.match().json()["state"] == "waiting"
    assert [row["player_id"] for row in queue(server)] == [bob.id]


def test_a_player_whose_page_stopped_calling_is_not_seated_and_is_forgotten(server):
    ann, bob = Guest(server, "Ann"), Guest(server, "Bob")
    ann.match()
    with server.app.state.hub.engine.begin() as db:  # Ann's page last called 11 s ago (match_absent is 10)
        db.execute(update(match_queue).values(seen_at=now() - timedelta(seconds=11)))
    assert bob.match().json()["state"] == "waiting"
    assert [row["player_id"] for row in queue(server)] == [bob.id]


def test_many_players_at_once_each_get_one_seat_and_no_seat_is_given_twice(server):
    guests = [Guest(server, f"P{n}") for n in range(8)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(Guest.until_seated, guests))
    check_seated_once(server, guests, answers)


def check_seated_once(client, guests, answers) -> None:
    """Every player has one seat of their own, every seat of those tables went to one of them, and
    nothing is left queued."""
    places = {guest.id: (answer["code"], answer["seat"]) for guest, answer in zip(guests, answers, strict=True)}
    assert len(set(places.values())) == len(guests)
    tables = {code for code, _ in places.values()}
    assert len(tables) == len(guests) // 2
    stored = {(code, seat): owner for code in tables for seat, owner in owners(client, code).items()}
    assert stored == {place: owner for owner, place in places.items()}
    assert queue(client) == []


@pytest.mark.parametrize(
    "body",
    [
        {"game": "nope", "players": 2},
        {"game": "toy", "players": 9},
        {"game": "toy", "players": "2"},
        {"game": "toy", "players": 2, "extra": 1},
        {"game": "toy"},
        {"game": "coda", "players": 2, "preset": "nope"},
        {"game": "coda", "players": 2, "preset": 1},
        {"game": "toy", "players": 2, "preset": "classic"},  # the toy game has no presets
    ],
)
def test_a_bad_request_is_refused_and_queues_nothing(server, body):
    ann = Guest(server, "Ann")
    answer = ann.match(body)
    assert answer.status_code == 400 and answer.json()["detail"]
    assert queue(server) == []


def test_without_a_session_there_is_no_quick_match(server):
    assert server.post("/api/match", json=TOY).status_code == 401
    assert server.delete("/api/match").status_code == 401


def test_quick_match_calls_are_throttled_per_address(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, match_calls_per_minute=3))) as client:
        ann = Guest(client, "Ann")
        assert [ann.match().status_code for _ in range(4)] == [200, 200, 200, 429]
        assert "3" in ann.match().json()["detail"]


def test_a_forgotten_player_leaves_the_queue(server):
    ann = Guest(server, "Ann")
    ann.match()
    forget(server.app.state.hub.engine, "Ann")
    assert queue(server) == []


def rated(client, guest: Guest, game: str, mu: float, players: int = 0) -> None:
    """``guest``'s rating of ``game`` (at ``players``, for a game rated per player count)."""
    with client.app.state.hub.engine.begin() as db:
        db.execute(
            insert(ratings).values(
                player_id=guest.id, game=game, players=players, mu=mu, sigma=2.0, games=30, wins=15, played_at=now()
            )
        )


def test_players_of_far_apart_ratings_are_matched_only_once_the_range_has_widened(server):
    ann, bob, cay = Guest(server, "Ann"), Guest(server, "Bob"), Guest(server, "Cay")
    rated(server, bob, "toy", 40.0)  # 900 shown points above a newcomer (Ann, 25)
    ann.match()
    assert bob.match().json()["state"] == "waiting"
    with server.app.state.hub.engine.begin() as db:  # Ann has waited 200 s: the range is 2 + 0.1 x 200 mu
        db.execute(
            update(match_queue)
            .where(match_queue.c.player_id == ann.id)
            .values(joined_at=now() - timedelta(seconds=200))
        )
    assert bob.match().json()["state"] == "seated"
    assert ann.match().json()["state"] == "seated"
    assert cay.match().json()["state"] == "waiting"


def test_the_closest_rating_in_range_is_matched_first():
    def entry(mu, waited=0.0):
        return SimpleNamespace(mu=mu, joined_at=now() - timedelta(seconds=waited))

    ann, far, close, newcomer = entry(25.0), entry(40.0), entry(26.5), entry(None)
    assert near(ann, [ann, far, close, newcomer], 2) == [ann, newcomer]  # a newcomer is 25
    assert near(ann, [ann, far, close], 3) == [ann, close]  # 40 is out of range: no group of three
    assert near(entry(25.0, waited=200), [far, close], 3)[1:] == [close, far]  # widened after 200 s


def test_the_ai_offered_is_the_tier_rated_closest_to_the_player(server):
    ann = Guest(server, "Ann")
    coda = {"game": "coda", "players": 2}
    hard = anchors("coda", 2)["hard"].mu  # the two-player anchors (coda/ratings-2.json)
    assert ann.match(coda).json()["ai"] == "easy"  # a newcomer's 25 is nearest easy's 35.5
    rated(server, ann, "coda", hard, players=3)  # another count's rating (Coda is rated per count)
    assert ann.match(coda).json()["ai"] == "easy"
    rated(server, ann, "coda", hard, players=2)
    assert ann.match(coda).json()["ai"] == "hard"
    assert ann.match().json()["ai"] is None  # the toy game's tiers are not rated

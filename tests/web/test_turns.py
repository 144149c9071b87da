"""Turn-based tables: each move may take hours; when it runs out the takeover AI plays the seat.
The hour is shortened through the server's ``turn_hour`` setting: no test waits an hour, and
nothing here measures time (it waits for conditions, each bounded)."""

import asyncio
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from codecrack.web.app import create_app
from codecrack.web.records import check_records
from codecrack.web.store import Store, make_engine, set_turn
from codecrack.web.turns import TurnPlan

from ..cluster.services import wait_until
from .conftest import fast_config
from .ports import memory_table
from .wsclient import HUMAN, bearer, create, seated

HOUR = 3600.0


def stored(tmp_path, code: str):
    engine = make_engine(f"sqlite:///{tmp_path}/web.db")
    try:
        return Store(engine).table(code)
    finally:
        engine.dispose()


def test_a_turn_based_table_shows_whose_move_it_is_and_until_when(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, turn_hour=HOUR))) as client:
        made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0}, turn_hours=24)
        turns = made["table"]["turns"]
        assert turns["hours"] == 24 and turns["on_lapse"] == "ai" and turns["seats"] == [0]
        assert made["table"]["takeover"] == "random"  # a lapse needs a takeover AI: the weakest by default
        deadline = datetime.fromisoformat(turns["deadline"])
        assert timedelta(hours=23) < deadline - datetime.now(UTC) <= timedelta(hours=24)
        other = client.post(f"/api/tables/{made['code']}/join", json={"seat": 1}).json()["token"]
        with seated(client, made["code"], made["token"]) as ann, seated(client, made["code"], other):
            ann.act({"type": "add", "amount": 1})
            wait_until(
                lambda: client.get(f"/api/tables/{made['code']}").json()["turns"]["seats"] == [1], "seat 1's turn"
            )
        wait_until(lambda: stored(tmp_path, made["code"]).turn_seats == [1], "the deadline stored")
        assert stored(tmp_path, made["code"]).turn_step == 1


def test_when_the_time_runs_out_the_takeover_ai_plays_the_seat(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, turn_hour=0.01))) as client:
        made = create(client, "toy", [HUMAN, HUMAN], options={"first": 0, "target": 50}, turn_hours=1)
        code = made["code"]
        # nobody ever connects: each seat's move runs out in turn and the AI plays it
        wait_until(lambda: client.get(f"/api/tables/{code}").json()["step"] >= 2, "two lapsed moves played")
        seats = client.get(f"/api/tables/{code}").json()["seats"]
        assert [seat["bot"] for seat in seats] == ["random", "random"]


def test_a_player_who_comes_back_takes_the_seat_again_with_a_new_deadline():
    async def scenario():
        table = memory_table(options={"first": 0, "target": 50})
        TurnPlan(hours=1).apply(table.row, table.game)
        table.restart_turn()
        first = table.row.turn_deadline
        table.taken_over.add(0)  # the time ran out: the AI plays seat 0
        table.returned(0)
        assert table.bot_tier(0) is None and table.row.turn_seats == [0]
        assert table.row.turn_deadline >= first
        await asyncio.sleep(0)  # the deadline's write runs
        assert table.journal.turns[table.code] == (0, table.row.turn_deadline, [0], [])
        table.close()

    asyncio.run(scenario())


def test_a_restart_keeps_the_deadline(tmp_path):
    config = fast_config(tmp_path, turn_hour=HOUR)
    with TestClient(create_app(config)) as client:
        made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0}, turn_hours=3)
        code = made["code"]
        wait_until(lambda: stored(tmp_path, code).turn_deadline is not None, "the deadline stored")
    before = stored(tmp_path, code)
    with TestClient(create_app(config)) as client:
        assert client.get(f"/api/tables/{code}").json()["turns"]["deadline"] == made["table"]["turns"]["deadline"]
    after = stored(tmp_path, code)
    assert (after.turn_step, after.turn_deadline, after.turn_seats) == (
        before.turn_step,
        before.turn_deadline,
        before.turn_seats,
    )


def test_a_deadline_that_passed_while_the_server_was_down_rings_at_the_start(tmp_path):
    """Even for a table too old to be restored: the hub loads the tables whose time ran out."""
    with TestClient(create_app(fast_config(tmp_path, turn_hour=HOUR))) as client:
        code = create(client, "toy", [HUMAN, HUMAN], options={"first": 0}, turn_hours=2)["code"]
        wait_until(lambda: stored(tmp_path, code).turn_deadline is not None, "the deadline stored")
    lapse_while_down(tmp_path, code, [0])
    with TestClient(create_app(fast_config(tmp_path, turn_hour=HOUR, restore_window=0))) as client:
        wait_until(lambda: client.get(f"/api/tables/{code}").json()["step"] == 1, "the lapsed move played")
        assert client.get(f"/api/tables/{code}").json()["turns"]["seats"] == [1]


def lapse_while_down(tmp_path, code: str, seats: list[int]) -> None:
    """Make the stored deadline of ``code``'s first move a minute ago, as if the server had been down."""
    engine = make_engine(f"sqlite:///{tmp_path}/web.db")
    Store(engine).write(set_turn, code, 0, datetime.now(UTC) - timedelta(minutes=1), seats, [])
    engine.dispose()


def test_a_seat_taken_over_after_a_lapse_stays_taken_over_across_a_restart(tmp_path):
    """Issue 28's fault: after a restart, the lapsed seat got a whole move's time again."""
    config = fast_config(tmp_path, turn_hour=HOUR)
    with TestClient(create_app(config)) as client:
        code = create(client, "toy", [HUMAN, HUMAN], options={"first": 0, "target": 50}, turn_hours=2)["code"]
        bob = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
        wait_until(lambda: stored(tmp_path, code).turn_deadline is not None, "the deadline stored")
    lapse_while_down(tmp_path, code, [0])
    with TestClient(create_app(fast_config(tmp_path, turn_hour=HOUR, restore_window=0))) as client:
        wait_until(lambda: client.get(f"/api/tables/{code}").json()["step"] == 1, "the lapsed move played")
    with TestClient(create_app(config)) as client, seated(client, code, bob) as seat:
        seat.act({"type": "add", "amount": 1})

        def info():
            return client.get(f"/api/tables/{code}").json()

        wait_until(lambda: info()["step"] == 3 or info()["turns"]["seats"] == [0], "seat 0's move played or timed")
        assert info()["step"] == 3 and info()["seats"][0]["bot"] == "random"


def info(client, code: str):
    return client.get(f"/api/tables/{code}").json()


def test_when_the_time_runs_out_at_a_losing_table_the_seat_loses_by_forfeit(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, turn_hour=0.01))) as client:
        made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0}, turn_hours=1, on_lapse="lose")
        code = made["code"]
        assert made["table"]["turns"]["on_lapse"] == "lose"
        wait_until(lambda: info(client, code)["over"], "the table over")
        ended = info(client, code)
        assert ended["result"] == {"winners": [1], "scores": None, "forfeit": {"seats": [0], "kind": "time"}}
        assert ended["step"] == 0 and ended["turns"]["seats"] == [] and ended["turns"]["deadline"] is None
        with seated(client, code, made["token"]) as ann:
            ann.act({"type": "add", "amount": 1})
            assert ann.until(lambda m: m["type"] == "error")["message"] == "the game is over"
        assert client.get(f"/api/tables/{code}/replay").status_code == 200  # over: its record is public
    row = stored(tmp_path, code)
    assert row.finished and row.result == ended["result"]
    engine = make_engine(f"sqlite:///{tmp_path}/web.db")
    checked = check_records(engine)
    engine.dispose()
    assert checked.problems == [] and checked.finished == 1
    with TestClient(create_app(fast_config(tmp_path, turn_hour=0.01))) as client:  # a restart keeps the end
        assert info(client, code)["over"] and info(client, code)["result"] == ended["result"]


def make_openings(client, code: str, tokens: list[str]) -> None:
    """The seats of ``tokens`` choose their openings, after which only seat 0 is awaited."""
    with ExitStack() as stack:
        for seat in [stack.enter_context(seated(client, code, token)) for token in tokens]:
            seat.act(seat.view["legal_actions"][0])
        wait_until(lambda: info(client, code)["turns"]["seats"] == [0], "only seat 0 awaited")


def seat_0_out_of_time(tmp_path, code: str) -> TestClient:
    """Seat 0's stored deadline passes while no server runs; the client of a server started then."""
    wait_until(lambda: stored(tmp_path, code).turn_seats == [0], "the deadline stored")
    engine = make_engine(f"sqlite:///{tmp_path}/web.db")
    Store(engine).write(set_turn, code, 2, datetime.now(UTC) - timedelta(minutes=1), [0], [])
    engine.dispose()
    return TestClient(create_app(fast_config(tmp_path, turn_hour=HOUR, restore_window=0)))


def test_a_game_lost_on_time_can_be_reviewed(tmp_path):
    """Issue 28: the result banner of a forfeited table offers its review: the review opens (it
    was refused as 'a game can be reviewed once it is over': the game itself had not ended)."""
    with TestClient(create_app(fast_config(tmp_path, turn_hour=HOUR))) as client:
        made = create(client, "coda", [HUMAN, HUMAN], sit=0, options={"first": 0}, turn_hours=24, on_lapse="lose")
        code = made["code"]
        bob = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
        make_openings(client, code, [made["token"], bob])  # both: then seat 0 alone is awaited
    with seat_0_out_of_time(tmp_path, code) as client:
        wait_until(lambda: info(client, code)["over"], "the table over")
        review = client.get(f"/api/tables/{code}/review", headers=bearer(made["token"]))
        assert review.status_code == 200, review.text
        assert review.json()["seat"] == 0 and not review.json()["finished"]  # the game itself did not end
        hint = client.get(f"/api/tables/{code}/replay/1/hint", headers=bearer(made["token"]))
        assert hint.status_code == 200, hint.text


@pytest.mark.parametrize("game", ["coda", "coding", "alphacode"])
def test_every_game_ends_by_forfeit_when_nobody_moves(tmp_path, game):
    """Nobody connects: the seats the game awaits first lose on time, the others share the win."""
    with TestClient(create_app(fast_config(tmp_path, turn_hour=0.01))) as client:
        code = create(client, game, [HUMAN, HUMAN], turn_hours=1, on_lapse="lose")["code"]
        wait_until(lambda: info(client, code)["over"], "the table over")
        result = info(client, code)["result"]
    lost = result["forfeit"]["seats"]
    assert lost and result["forfeit"]["kind"] == "time" and result["scores"] is None
    assert result["winners"] == [seat for seat in (0, 1) if seat not in lost]


def test_in_a_three_player_coda_game_the_seat_out_of_time_loses_and_the_others_share_the_win(tmp_path):
    config = fast_config(tmp_path, turn_hour=HOUR)
    with TestClient(create_app(config)) as client:
        made = create(client, "coda", [HUMAN] * 3, sit=1, turn_hours=24, on_lapse="lose")
        code = made["code"]
        third = client.post(f"/api/tables/{code}/join", json={"seat": 2}).json()["token"]
        make_openings(client, code, [made["token"], third])  # chosen by all at once: seat 0 never chooses
    with seat_0_out_of_time(tmp_path, code) as client:
        wait_until(lambda: info(client, code)["over"], "the table over")
        assert info(client, code)["result"] == {
            "winners": [1, 2],
            "scores": None,
            "forfeit": {"seats": [0], "kind": "time"},
        }


@pytest.mark.parametrize(
    "body",
    [
        {"game": "toy", "seats": [HUMAN, HUMAN], "turn_hours": 0},
        {"game": "toy", "seats": [HUMAN, HUMAN], "turn_hours": 73},
        {"game": "toy", "seats": [HUMAN, HUMAN], "turn_hours": 2, "on_lapse": "win"},
        {"game": "toy", "seats": [HUMAN, HUMAN], "turn_hours": 2, "on_lapse": ["lose"]},
        {"game": "coding", "seats": [HUMAN, HUMAN], "options": {"mode": "speed"}, "turn_hours": 2},
    ],
)
def test_a_bad_turn_setting_is_refused_and_nothing_is_stored(client, body):
    before = client.get("/api/tables").json()
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    assert client.get("/api/tables").json() == before

"""Two `codecrack serve` instances on one PostgreSQL database and one Redis, as real processes,
with nginx in front where clients must find a live instance on their own (issue 11)."""

from __future__ import annotations

import json
import socket
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from codecrack.loadtest.target import websocket_base

from ..services import free_port
from .players import Player
from .services import GUARD, NginxServer, RedisServer, instance, wait_until

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}


def port_of(url: str) -> int:
    return urlsplit(url).port


def new_table(url: str, seats: list[dict], **body) -> dict:
    response = httpx.post(f"{url}/api/tables", json={"game": "coda", "seats": seats, **body}, timeout=GUARD)
    assert response.status_code == 200, response.text
    return response.json()


def join(url: str, code: str, seat: int, invite: str | None = None) -> httpx.Response:
    body = {"seat": seat, "name": f"p{seat}", "invite": invite}
    return httpx.post(f"{url}/api/tables/{code}/join", json=body, timeout=GUARD)


def stored_actions(db_url: str, code: str) -> list[tuple[int, int, dict]]:
    engine = create_engine(db_url)
    with engine.connect() as db:
        rows = db.execute(
            text("SELECT step, seat, action FROM actions WHERE table_code = :code ORDER BY step"), {"code": code}
        ).all()
    engine.dispose()
    return [tuple(row) for row in rows]


TURN_HOUR = "8"  # seconds: a turn-based table's hour in the pair (only the forfeit test makes one)


@pytest.fixture(scope="module")
def pair(postgres, redis_server):
    """Two instances on one new database, shared by the tests that kill neither of them."""
    db_url = postgres.new_database()
    with (
        instance(db_url, redis_server.url, "first", CODECRACK_TURN_HOUR=TURN_HOUR) as first,
        instance(db_url, redis_server.url, "second", CODECRACK_TURN_HOUR=TURN_HOUR) as second,
    ):
        yield first.url, second.url


def test_a_seat_is_claimed_only_once_across_instances(pair):
    """Sixteen players ask for seat 0 at once, half through each instance: one gets it, and both
    instances then show it taken."""
    first, second = pair
    code = new_table(first, [HUMAN, HUMAN])["code"]
    httpx.get(f"{second}/api/tables/{code}", timeout=GUARD)  # the second instance loads it too
    urls = [first, second] * 8
    with ThreadPoolExecutor(len(urls)) as pool:
        answers = list(pool.map(lambda url: join(url, code, 0).status_code, urls))
    assert sorted(answers) == [200] + [400] * 15
    for url in pair:
        wait_until(
            lambda: httpx.get(f"{url}/api/tables/{code}", timeout=GUARD).json()["seats"][0]["claimed"],
            "the claim shows on every instance",
        )


def test_a_friends_seat_is_taken_on_the_other_instance_only_with_the_current_invitation(pair, redis_server):
    """A friends' table made through one instance: the other refuses its seats without the
    invitation and gives one with it; renewed through the first, the old link seats no one there,
    and the friend connected there is sent the new one."""
    first, second = pair
    made = new_table(first, [HUMAN, HUMAN, HUMAN], sit=0, open_to="link")
    code, old = made["code"], made["invite"]
    assert join(second, code, 1).status_code == 403
    friend = join(second, code, 1, old)
    assert friend.status_code == 200
    with (  # a player on each instance, so that both follow the table (one with none lets go of it)
        connect(f"{websocket_base(first)}/ws/{code}", open_timeout=GUARD) as host,
        connect(f"{websocket_base(second)}/ws/{code}", open_timeout=GUARD) as socket,
    ):
        host.send(json.dumps({"type": "hello", "token": made["token"]}))
        socket.send(json.dumps({"type": "hello", "token": friend.json()["token"]}))
        wait_until(lambda: followers(redis_server, code) == 2, "both instances follow the table")
        renewed = httpx.post(
            f"{first}/api/tables/{code}/invite", headers={"authorization": f"Bearer {made['token']}"}, timeout=GUARD
        )
        assert renewed.status_code == 200
        assert join(second, code, 2, old).status_code == 403  # the database decides: no wait for the fan-out
        assert next_of(socket, "invite") == {"type": "invite", "invite": renewed.json()["invite"]}
    assert join(second, code, 2, renewed.json()["invite"]).status_code == 200


def test_a_session_made_on_one_instance_is_served_and_ended_on_the_other(pair):
    """Sessions live in the database: a guest's cookie made through one instance is the same
    player on the other, which turns it into an account; a sign-in through the other finds the
    seat taken through the first; signing out everywhere on one ends the session on both at once."""
    first, second = pair

    def sent(url: str, me: dict) -> dict:  # what a page of ``url`` sends with a state change
        return {"origin": url, "x-csrf-token": me["csrf"]}

    with httpx.Client(timeout=GUARD) as phone, httpx.Client(timeout=GUARD) as laptop:
        assert phone.post(f"{first}/api/me/guest", json={"name": "Tess"}, headers={"origin": first}).status_code == 200
        me = phone.get(f"{second}/api/me").json()
        assert me["player"] == {"name": "Tess", "handle": None, "guest": True}
        body = {"handle": "tess_cluster", "password": "correct horse battery"}
        assert phone.post(f"{second}/api/me/account", json=body, headers=sent(second, me)).status_code == 200
        me = phone.get(f"{first}/api/me").json()
        assert me["player"]["handle"] == "tess_cluster"
        made = phone.post(
            f"{first}/api/tables", json={"game": "coda", "seats": [HUMAN, RANDOM], "sit": 0}, headers=sent(first, me)
        )
        assert made.status_code == 200, made.text
        assert laptop.post(f"{second}/api/session", json=body, headers={"origin": second}).status_code == 200
        assert [seat["code"] for seat in laptop.get(f"{second}/api/me/seats").json()] == [made.json()["code"]]
        assert phone.delete(f"{first}/api/sessions", headers=sent(first, me)).status_code == 200
        for url in pair:
            assert phone.get(f"{url}/api/me").json()["player"] is None
            assert laptop.get(f"{url}/api/me").json()["player"] is None


def test_two_clients_on_different_instances_play_a_whole_game(pair):
    """Seat 0 plays on one instance, seat 1 on the other, and a bot (driven by one of them) plays
    seat 2: each player is sent every step, in order, exactly as the stored game has it; the
    instances' metrics count the fan-out messages sent and heard and the lease taken, and name no table."""
    first, second = pair
    made = new_table(first, [HUMAN, HUMAN, RANDOM], sit=0)
    other = join(second, made["code"], 1)
    assert other.status_code == 200, other.text
    players = [
        Player(first, made["code"], made["token"], seed=1),
        Player(second, made["code"], other.json()["token"], seed=2),
    ]
    for player in players:
        player.start()
    for player in players:
        player.finish()
    steps = {player.check_against_record() for player in players}
    assert len(steps) == 1 and players[0].result == players[1].result is not None
    last = steps.pop()
    for player in players:  # from its greeting on, every step, none skipped
        assert sorted(player.states) == list(range(min(player.states), last + 1))
    counted = [httpx.get(f"{url}/metrics", timeout=GUARD).text for url in pair]  # issue 29 §2, the cluster's series
    assert any(counter(text, "codecrack_fanout_messages_total", direction="sent") > 0 for text in counted)
    assert any(counter(text, "codecrack_fanout_messages_total", direction="heard") > 0 for text in counted)
    assert any(counter(text, "codecrack_lease_changes_total", change="taken") > 0 for text in counted)
    assert not any(made["code"] in text or made["code"].lower() in text for text in counted)


def counter(text: str, name: str, **labels: str) -> float:
    """A counter's value in a ``/metrics`` answer (0 when absent)."""
    found = [
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name and sample.labels == labels
    ]
    return found[0] if found else 0.0


def followers(redis_server, code: str) -> int:
    """How many instances follow the table's channel."""
    return dict(redis_server.client().pubsub_numsub(f"codecrack:table:{code}"))[f"codecrack:table:{code}".encode()]


def test_an_instance_lets_go_of_a_table_whose_players_are_all_elsewhere(pair, redis_server):
    """A table made through one instance and played through the other (nginx spreads the creations
    and sends each table's websockets to one instance): its lease moves to the players' instance,
    and the instance that made it stops following it (it heard, and applied, every step before).
    The game then plays to its end as stored."""
    first, second = pair
    made = new_table(first, [HUMAN, HUMAN], sit=0)
    code = made["code"]
    other = join(second, code, 1).json()
    players = [Player(second, code, made["token"], seed=6), Player(second, code, other["token"], seed=7)]
    for player in players:
        player.paused.set()
        player.start()
    wait_until(
        lambda: lease_owner(redis_server, code) == "second" and followers(redis_server, code) == 1,
        "the lease and the following move to the players' instance",
    )
    for player in players:
        player.paused.clear()
    for player in players:
        player.finish()
    assert {player.check_against_record() for player in players} == {max(players[0].states)}
    assert followers(redis_server, code) <= 1


def test_a_chat_line_said_on_one_instance_reaches_a_player_on_the_other(pair, redis_server):
    """Seat 0 talks through one instance, seat 1 listens through the other (issue 28 §5)."""
    made = new_table(pair[0], [HUMAN, HUMAN], sit=0)
    code = made["code"]
    with one_seat_on_each(pair, made) as (ann, bob):
        wait_until(lambda: followers(redis_server, code) == 2, "both instances follow the table")
        ann.send(json.dumps({"type": "chat", "text": "good luck from the first"}))
        line = next_chat(bob)["lines"][0]
        assert (line["seat"], line["body"]) == (0, "good luck from the first")


@contextmanager
def one_seat_on_each(pair, made: dict):
    """Seat 0, the creator of the table ``made`` on the first instance, and seat 1, joined through
    the second, each connected to its instance; both have said hello."""
    first, second = pair
    code = made["code"]
    seated = ((first, made["token"]), (second, join(second, code, 1).json()["token"]))
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(f"{websocket_base(url)}/ws/{code}", open_timeout=GUARD)) for url, _ in seated
        ]
        for socket, (_, token) in zip(sockets, seated, strict=True):
            socket.send(json.dumps({"type": "hello", "token": token}))
        yield sockets


def next_chat(socket) -> dict:
    return next_of(socket, "chat")


def next_of(socket, kind: str) -> dict:
    """The next message of type ``kind`` the socket is sent (each read bounded by GUARD)."""
    while True:
        message = json.loads(socket.recv(timeout=GUARD))
        if message["type"] == kind:
            return message


def test_a_forfeit_on_time_reaches_the_players_on_both_instances(pair):
    """A turn-based table whose seats lose on time (``on_lapse: "lose"``), Ann on one instance and
    Bob on the other; nobody makes an opening: when the time runs out, both are told the table is
    over, both seats lost on time (a forfeit is no step: the other instance re-reads the table)."""
    made = new_table(pair[0], [HUMAN, HUMAN], sit=0, turn_hours=1, on_lapse="lose")
    with one_seat_on_each(pair, made) as (ann, bob):
        for socket in (ann, bob):
            assert not next_of(socket, "hello")["table"]["over"], f"the {TURN_HOUR} s ran out before both came"
        for socket in (ann, bob):
            while not (table := next_of(socket, "table")["table"])["over"]:
                pass
            assert table["result"] == {"winners": [], "scores": None, "forfeit": {"seats": [0, 1], "kind": "time"}}


def test_a_restart_of_redis_mid_game_loses_nothing(pair, redis_server):
    """Redis is killed and started again (empty) mid-game: the players on the two instances play
    on; what was published while it was down is caught up from the database, and the bot's
    lease is taken again."""
    first, second = pair
    made = new_table(first, [HUMAN, HUMAN, RANDOM], sit=0)
    other = join(second, made["code"], 1).json()
    players = [Player(first, made["code"], made["token"], seed=4), Player(second, made["code"], other["token"], seed=5)]
    for player in players:
        player.start()
    wait_until(lambda: min(player.step for player in players) >= 6, "the game gets going")
    redis_server.restart()
    for player in players:
        player.finish()
    steps = {player.check_against_record() for player in players}
    assert len(steps) == 1 and max(players[0].states) == steps.pop()


def lease_owner(redis_server, code: str) -> str | None:
    owner = redis_server.client().get(f"codecrack:lease:{code}")
    return owner.decode() if owner else None


def player_instance(redis_server, code: str) -> str | None:
    """The instance seat 0 is connected to, from the presence entries."""
    members = [member.decode() for member in redis_server.client().zrange(f"codecrack:seats:{code}", 0, -1)]
    return next((member.split(":")[1] for member in members if member.startswith("0:")), None)


def driven_where_the_player_is(redis_server, code: str) -> bool:
    owner = lease_owner(redis_server, code)
    return owner is not None and owner == player_instance(redis_server, code)


def test_kill_9_of_the_driving_instance_mid_game_loses_nothing(postgres_url, redis_server):
    """The instance that drives a table (its bot and its turn clock) is killed with SIGKILL mid-game.
    The player, connected through nginx, reconnects to the survivor; the survivor takes the lease,
    its clock plays the turn the player lets run out, its bot plays on, and every state the player
    was ever sent is in the stored game."""
    clock = {"CODECRACK_TURN_THINK": "1.5", "CODECRACK_TURN_COUNTDOWN": "0.5"}
    with ExitStack() as stack:
        servers = {
            name: stack.enter_context(instance(postgres_url, redis_server.url, name, **clock))
            for name in ("one", "two")
        }
        proxy = stack.enter_context(NginxServer([port_of(server.url) for server in servers.values()]))
        made = new_table(proxy.url, [HUMAN, RANDOM], sit=0, options={"clock": True})
        code = made["code"]
        player = Player(proxy.url, code, made["token"], seed=3, idle_after_reconnect=True)
        player.paused.set()
        player.start()
        # the lease follows the player: the instance that drives the table is the one it is on
        wait_until(lambda: driven_where_the_player_is(redis_server, code), "the lease moves to the player")
        player.paused.clear()
        wait_until(lambda: player.step >= 6, "the game gets going")
        driver = lease_owner(redis_server, code)
        servers[driver].process.kill()
        player.finish()
        assert lease_owner(redis_server, code) != driver
        played = player.check_against_record()
        actions = stored_actions(postgres_url, code)
        assert len(actions) == played
        assert player.reconnections >= 1 and player.idled_at is not None
        assert actions[player.idled_at][1:] == (0, {"type": "timeout"})  # the survivor's clock
        assert any(seat == 1 for _, seat, _ in actions[player.idled_at :])  # the survivor's bot


def test_a_lapsed_lease_is_taken_over_without_waiting_for_a_request(postgres_url):
    """Issue 24 §5: the instance that drives an all-AI table is killed with SIGKILL, and no client
    asks for the table afterwards. The survivor, which never loaded it, takes the lapsed lease on
    its own and its bots play on. A Redis of its own: an instance of another test on the same Redis
    would take the lapsed lease too, find no such table in its own database, and drop it."""
    with RedisServer() as redis_server, ExitStack() as stack:
        servers = {
            name: stack.enter_context(instance(postgres_url, redis_server.url, name, CODECRACK_AI_PACE="0.3"))
            for name in ("one", "two")
        }
        code = new_table(servers["one"].url, [RANDOM, RANDOM])["code"]
        wait_until(lambda: lease_owner(redis_server, code) == "one", "the creating instance drives the table")
        wait_until(lambda: len(stored_actions(postgres_url, code)) >= 2, "the bots start playing")
        servers["one"].process.kill()
        played = len(stored_actions(postgres_url, code))
        wait_until(lambda: lease_owner(redis_server, code) == "two", "the survivor takes the lapsed lease")
        wait_until(lambda: len(stored_actions(postgres_url, code)) > played, "the survivor's bots play on")


def case_variants(code: str) -> list[str]:
    """Every way to write ``code`` in upper and lower case (its digits have one)."""
    variants = [""]
    for character in code:
        variants = [done + form for done in variants for form in dict.fromkeys((character.upper(), character.lower()))]
    return variants


def served(server, code: str) -> bool:
    """Whether ``server``'s access log shows a request for the table ``code`` written in any case."""
    log = (Path(server._folder.name) / "server.log").read_text()
    return f"/api/tables/{code}".lower() in log.lower()


def test_nginx_sends_a_table_to_one_instance_whatever_the_case_of_its_code(postgres_url, redis_server):
    """Issue 24 §4: the app reads a table's code in any case, so nginx must hash it case-blind;
    else a client picks a table's instance by the case it writes the code in. Each of the 32 ways
    to write a code goes through nginx: one instance answers them all."""
    with ExitStack() as stack:
        servers = [stack.enter_context(instance(postgres_url, redis_server.url, name)) for name in ("left", "right")]
        proxy = stack.enter_context(NginxServer([port_of(server.url) for server in servers]))
        code = "ABCDE"
        for variant in case_variants(code):
            assert httpx.get(f"{proxy.url}/api/tables/{variant}", timeout=GUARD).status_code == 404
        assert [served(server, code) for server in servers].count(True) == 1


def test_nginx_cuts_off_a_client_that_drips_its_headers():
    """Issue 24 §3 behind nginx: the instances see only nginx, so nginx must cut off a client whose
    headers never end (10 s, as `codecrack serve`'s header_timeout); its default held one for 60 s.
    No instance is needed: the request never reaches one."""
    with NginxServer([free_port()]) as proxy:
        dripping = socket.create_connection(("127.0.0.1", proxy.port), timeout=GUARD / 2)  # a bound between the two
        dripping.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        answer = b""
        while chunk := dripping.recv(4096):
            answer += chunk
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408")
        dripping.close()

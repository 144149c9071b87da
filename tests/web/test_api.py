"""The lobby's HTTP API and live play over websockets, against the real app."""

import pytest
from fastapi.testclient import TestClient

from codecrack.web.app import create_app
from codecrack.web.bots import Bots

from .conftest import fast_config
from .sandbox_work import Failing
from .wsclient import HUMAN, RANDOM, bearer, create, replay_frames, seated


def test_games_offer_forms_built_from_each_options_model(client):
    games = {game["name"]: game for game in client.get("/api/games").json()}
    toy = games["toy"]
    assert (toy["min_players"], toy["max_players"]) == (2, 3)
    assert toy["agents"] == ["random"]
    fields = {field["name"]: field for field in toy["options"]}
    assert fields["target"]["kind"] == "int" and fields["target"]["default"] == 5
    assert fields["first"]["kind"] == "seat"


@pytest.mark.parametrize(
    "body, problem",
    [
        ({"game": "chess", "seats": [HUMAN, HUMAN]}, "valid games"),
        ({"game": "toy", "seats": [HUMAN, HUMAN], "options": {"colour": "red"}}, "options.colour: not accepted"),
        ({"game": "toy", "seats": [HUMAN] * 4}, "2-3 players"),
        ({"game": "toy", "players": 3, "seats": [HUMAN, HUMAN]}, "one seat per player"),
        ({"game": "toy", "seats": [HUMAN, {"kind": "ai", "agent": "genius"}]}, "unknown AI 'genius'"),
        ({"game": "toy", "seats": [HUMAN, {"kind": "robot"}]}, "seats.1.kind: must be one of: 'human', 'ai'"),
        ({"game": "toy", "seats": [HUMAN, HUMAN], "takeover": "genius"}, "unknown takeover AI"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(client, body, problem):
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert problem in response.json()["detail"]


def test_join_by_code_gives_a_token_once_per_seat(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, name="Ann")
    code = made["code"]
    assert client.get(f"/api/tables/{code.lower()}").json()["seats"][0]["name"] == "Ann"
    joined = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()
    assert joined["seat"] == 1 and joined["token"] != made["token"]
    again = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Eve"})
    assert again.status_code == 400 and "not open" in again.json()["detail"]
    assert client.post("/api/tables/ZZZZZ/join", json={"seat": 0}).status_code == 404


def test_a_game_against_an_ai_plays_to_the_end_and_replays(client):
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"first": 0, "target": 6})
    with seated(client, made["code"], made["token"]) as me:
        me.play_to_the_end(lambda view: {"type": "add", "amount": 1})
        final = me.view
    table = client.get(f"/api/tables/{made['code']}").json()
    assert table["over"] and table["result"]["winners"]
    listed = {t["code"]: t for t in client.get("/api/tables").json()}
    assert listed[made["code"]]["over"]
    frames = replay_frames(client.get, made["code"], bearer(made["token"]))
    assert len(frames) == table["step"] + 1
    assert frames[0]["total"] == 0 and frames[-1] == final


def test_replay_waits_for_the_end(client):
    made = create(client, "toy", [HUMAN, HUMAN])
    assert client.get(f"/api/tables/{made['code']}/replay").status_code == 400


def test_an_illegal_action_is_answered_to_its_sender_only(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options={"first": 0})
    other = client.post(f"/api/tables/{made['code']}/join", json={"seat": 1}).json()
    with seated(client, made["code"], made["token"]) as me, seated(client, made["code"], other["token"]) as you:
        me.act({"type": "add", "amount": 7})
        assert me.until(lambda m: m["type"] == "error")["message"] == "amount must be 1 or 2"
        you.act({"type": "add", "amount": 1})
        assert "may not act now" in you.until(lambda m: m["type"] == "error")["message"]
        me.act({"type": "add", "amount": 2})
        assert me.state_at(1)["total"] == 2 and you.state_at(1)["total"] == 2
        assert [m["message"] for m in you.log if m["type"] == "error"] == [
            "seat 2 may not act now (to move: [1])"
        ]  # seats as the page numbers them


def test_malformed_messages_are_refused(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0)
    with seated(client, made["code"], made["token"]) as me:
        me.ws.send_text("not json")
        assert "JSON" in me.until(lambda m: m["type"] == "error")["message"]
        me.ws.send_json({"type": "dance"})
        assert "'type' is action, hint, ping or resync" in me.until(lambda m: m["type"] == "error")["message"]
        me.ws.send_json({"type": "ping"})
        me.until(lambda m: m["type"] == "pong")


def test_spectators_see_view_none_and_cannot_act(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0)
    with seated(client, made["code"]) as spectator:
        hello = next(m for m in spectator.log if m["type"] == "hello")
        assert hello["seat"] is None and spectator.view["secret"] is None
        spectator.act({"type": "add", "amount": 1})
        assert "spectators cannot act" in spectator.until(lambda m: m["type"] == "error")["message"]


def test_the_seat_token_brings_a_player_back_to_their_seat(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=1, options={"first": 1})
    with seated(client, made["code"], made["token"]) as me:
        secret = me.view["secret"]
        me.act({"type": "add", "amount": 2})
        me.state_at(1)
    with seated(client, made["code"], made["token"]) as again:
        assert next(m for m in again.log if m["type"] == "hello")["seat"] == 1
        assert again.view["secret"] == secret and again.view["total"] == 2


def test_unknown_table_socket_is_closed(client):
    with client.websocket_connect("/ws/NOPE1") as websocket:
        assert websocket.receive_json()["type"] == "error"


def test_rematch_keeps_seats_and_tokens(client):
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, name="Ann", options={"target": 1, "first": 0})
    code = made["code"]
    mine = bearer(made["token"])
    assert client.post(f"/api/tables/{code}/rematch", headers=mine).status_code == 400  # not over yet
    with seated(client, code, made["token"]) as me:
        me.play_to_the_end(lambda view: {"type": "add", "amount": 1})
        fresh = client.post(f"/api/tables/{code}/rematch", headers=mine).json()["code"]
        assert me.until(lambda m: m["type"] == "rematch")["code"] == fresh
    assert client.post(f"/api/tables/{code}/rematch", headers=mine).json()["code"] == fresh  # one per table
    with seated(client, fresh, made["token"]) as me_again:
        hello = next(m for m in me_again.log if m["type"] == "hello")
        assert hello["seat"] == 0 and hello["table"]["seats"][0]["name"] == "Ann"
        assert hello["table"]["options"]["target"] == 1 and hello["table"]["step"] <= 1  # a fresh game


def test_an_absent_player_is_replaced_by_the_takeover_ai(client):
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, takeover="random", options={"first": 0, "target": 9})
    with seated(client, made["code"], made["token"]):
        pass  # connect, then leave: after the (short) disconnect timeout a bot plays seat 0
    with seated(client, made["code"]) as spectator:
        spectator.until(lambda m: m["type"] == "table" and m["table"]["over"])
        assert spectator.log[-1]["table"]["seats"][0]["bot"] == "random"


def test_a_returning_player_stops_the_takeover_bot_before_it_moves(tmp_path):
    config = fast_config(tmp_path, ai_pace=30.0)  # the takeover bot would still be pausing
    with TestClient(create_app(config)) as client:
        made = create(client, "toy", [HUMAN, RANDOM], sit=0, takeover="random", options={"first": 0})
        with seated(client, made["code"]) as spectator:
            with seated(client, made["code"], made["token"]):
                pass
            spectator.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["bot"] == "random")
        with seated(client, made["code"], made["token"]) as me:
            table = client.app.state.hub.live[made["code"]]
            assert not table.running(("bot", 0)) and me.step == 0


def test_two_requests_loading_one_stored_table_share_it(client):
    import asyncio

    made = create(client, "toy", [HUMAN, HUMAN])
    hub = client.app.state.hub
    hub.unload(hub.live[made["code"]])  # as when an idle table is pushed out of the live tables

    async def load_twice():
        return await asyncio.gather(hub.find(made["code"]), hub.find(made["code"]))

    first, second = client.portal.call(load_twice)
    assert first is second is hub.live[made["code"]]


def test_two_players_sitting_at_once_cannot_both_take_a_seat(client):
    import asyncio

    from codecrack.core.errors import OptionError

    made = create(client, "toy", [HUMAN, HUMAN])
    hub = client.app.state.hub

    async def sit_twice():
        table = await hub.find(made["code"])
        return await asyncio.gather(hub.claim(table, 1, "Ann"), hub.claim(table, 1, "Bob"), return_exceptions=True)

    outcomes = client.portal.call(sit_twice)
    assert sum(isinstance(o, str) for o in outcomes) == 1
    assert sum(isinstance(o, OptionError) and "not open" in str(o) for o in outcomes) == 1
    assert len(hub.store.tokens(made["code"])) == 1


def test_two_rematch_requests_at_once_make_one_rematch(client):
    import asyncio

    made = create(client, "toy", [RANDOM, RANDOM], options={"target": 4})
    with seated(client, made["code"]) as spectator:
        spectator.until(lambda m: m["type"] == "table" and m["table"]["over"])
    hub = client.app.state.hub

    async def ask_twice():
        table = await hub.find(made["code"])
        return await asyncio.gather(hub.rematch(table), hub.rematch(table))

    first, second = client.portal.call(ask_twice)
    assert first is second
    assert len([row for row in hub.store.list_tables() if row.code != made["code"]]) == 1


def test_the_index_page_and_static_files_are_served(client):
    assert '<main id="app"' in client.get("/").text
    assert client.get("/t/ABCDE").status_code == 200
    assert client.get("/static/js/main.js").status_code == 200
    assert client.get("/static/icons/hand.svg").text.lstrip().startswith("<!--")


def test_every_broadcast_action_is_already_stored(client):
    made = create(client, "toy", [HUMAN, RANDOM], sit=0, options={"first": 0, "target": 8})
    store = client.app.state.hub.store
    with seated(client, made["code"], made["token"]) as me:
        seen = []

        def choose(view):
            seen.append((me.step, len(store.moves(made["code"]))))
            return {"type": "add", "amount": 1}

        me.play_to_the_end(choose)
    assert seen and all(stored >= step for step, stored in seen)


def test_a_failing_bot_falls_back_to_a_legal_move(client, monkeypatch, caplog):
    monkeypatch.setattr(Bots, "agent", lambda bots, table, seat, tier: Failing())  # sent to a worker, as any agent
    made = create(client, "toy", [RANDOM, RANDOM], options={"target": 4})
    with seated(client, made["code"]) as spectator:
        spectator.until(lambda m: m["type"] == "table" and m["table"]["over"])
    assert any("failing agent failed" in record.getMessage() for record in caplog.records)


def test_finished_tables_in_the_list_keep_their_players_names(tmp_path):
    config = fast_config(tmp_path)
    with TestClient(create_app(config)) as client:
        made = create(client, "toy", [HUMAN, RANDOM], sit=0, name="Ann", options={"first": 0, "target": 6})
        with seated(client, made["code"], made["token"]) as me:
            me.play_to_the_end(lambda view: {"type": "add", "amount": 1})
    with TestClient(create_app(config)) as client:  # a new server: the finished table is not loaded
        listed = {t["code"]: t for t in client.get("/api/tables").json()}
    assert listed[made["code"]]["over"]
    assert listed[made["code"]]["seats"][0]["name"] == "Ann"


def test_a_player_can_neither_see_nor_send_the_clocks_timeout(client):
    made = create(client, "coda", [HUMAN, RANDOM], sit=0, options={"first": 0, "clock": True})
    with seated(client, made["code"], made["token"]) as me:
        me.act({"type": "opening", "black": 2})
        me.until_view(lambda view: view["phase"] == "draw")
        step = me.step
        me.act({"type": "timeout"})
        refused = me.until(lambda m: m["type"] == "error")
        assert "sent by the table's clock" in refused["message"]
        assert me.step == step


def test_the_coding_answer_window_offers_its_slapper_no_timeout():
    from codecrack.web.actions import player_view

    from ..coding.helpers import play_rounds, rigged

    game = rigged(["F98", "D57"], mode="speed")
    play_rounds(game)
    game.apply(1, {"type": "slap"})
    assert {"type": "timeout"} in game.view(1)["legal_actions"]
    shown = player_view(game.view(1))["legal_actions"]
    assert shown and {"type": "timeout"} not in shown

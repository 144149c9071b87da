"""Protocol-level leak test: every message to a seat holds exactly ``view(seat)`` and nothing more,
and every delta is, byte for byte, the one made from that seat's own views alone."""

import json
import random

import pytest

import codecrack
from codecrack.protocol.deltas import diff
from codecrack.web.actions import player_view
from codecrack.web.connections import encode

from .wsclient import HUMAN, RANDOM, create, play_out, seated

GAME_DATA = ("view", "rows", "sheets", "own", "drawn", "legal_actions", "history")
TABLE_KEYS = {
    "code",
    "game",
    "players",
    "options",
    "seats",
    "takeover",
    "step",
    "over",
    "result",
    "rematch",
    "hints",
    "rated",
    "open_to",  # never the invitation itself (tests/web/test_invite.py)
    "turns",  # a turn-based table's pace and deadline (public)
}


def stored_record(client, code):
    hub = client.app.state.hub
    row = hub.store.table(code)
    return row.record(hub.store.moves(code))


def views_by_step(record, seat):
    """``view(seat)`` after each step of the record, as the server shows it (without ``timeout``)."""
    game = codecrack.new_game(record["game"], players=record["players"], seed=record["seed"], **record["options"])
    views = [player_view(game.view(seat))]
    for actor, action in record["actions"]:
        game.apply(actor, action)
        views.append(player_view(game.view(seat)))
    return views


def delta_text(views, message):
    """The delta message from the views alone: the changes of the seat's view from ``base`` to ``step``."""
    return encode(
        {
            "type": "delta",
            "base": message["base"],
            "step": message["step"],
            "changes": diff(views[message["base"]], views[message["step"]]),
            "clock": message["clock"],
        }
    )


def check_messages(player, seat, record):
    """State messages equal the engine's view of ``seat`` at their step, delta messages are exactly
    the text made from two of those views, and the view followed through them is the engine's at
    every step; other messages carry no game data."""
    views = views_by_step(record, seat)
    as_json = json.loads(json.dumps(views))
    for step, view in player.views:
        assert view == as_json[step]
    for text, message in zip(player.texts, player.log):
        if message["type"] == "state":
            assert message["view"] == as_json[message["step"]]
        elif message["type"] == "delta":
            assert text == delta_text(views, message)
        else:
            public = {k: v for k, v in message.get("table", {}).items() if k != "options"}
            text = json.dumps({**message, "table": public})
            assert not any(f'"{key}"' in text for key in GAME_DATA), message
            if "table" in message:
                assert message["table"]["options"] == views[0]["options"]
                assert set(message["table"]) == TABLE_KEYS
                assert message["table"]["result"] in (None, views[-1]["result"])


def hidden_coda_values_absent(player, seat):
    for view in (view for _, view in player.views if view["result"] is None):
        for owner, row in enumerate(view["rows"]):
            for tile in row:
                if owner != seat and not tile["revealed"]:
                    assert tile["value"] is None
        if view["drawn"] and view["current"] != seat and not view["drawn"]["revealed"]:
            assert view["drawn"]["value"] is None


@pytest.mark.parametrize("options", [{"first": 0}, {"first": 1, "dashes": True, "draw": "deck"}])
def test_coda_messages_hold_exactly_each_seats_view(client, options):
    made = create(client, "coda", [HUMAN, HUMAN, RANDOM], sit=0, options=options)
    code = made["code"]
    bob = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
    with (
        seated(client, code, made["token"]) as ann,
        seated(client, code, bob) as ben,
        seated(client, code) as spectator,
    ):
        ann.ws.send_json({"type": "action", "action": {"type": "guess", "target": 1, "index": 0}})
        play_out({0: ann, 1: ben}, random.Random(2))
        spectator.until(lambda m: m["type"] == "table" and m["table"]["over"])
    record = stored_record(client, code)
    for seat, player in ((0, ann), (1, ben), (None, spectator)):
        check_messages(player, seat, record)
        hidden_coda_values_absent(player, seat)
        end = player.view  # the end reveals everything
        assert end["result"] and all(t["value"] is not None for row in end["rows"] for t in row)
    assert any(m["type"] == "error" for m in ann.log)  # the junk guess was refused, to Ann only
    assert not any(m["type"] == "error" for m in spectator.log)


def hidden_coding_codes_absent(player, seat):
    for view in (view for _, view in player.views if view["result"] is None):
        for sheet in view["sheets"]:
            assert sheet["code"] is None or sheet["seat"] == seat
        assert (view["own"] is None) == (seat is None)


def hidden_alphacode_codes_absent(player, seat):
    for view in (view for _, view in player.views if view["result"] is None):
        assert view["codes"] is None
        assert (view["code"] is None) or seat is not None


@pytest.mark.parametrize(
    "game, options, hidden, steps",
    [
        ("coding", {"first": 0, "mode": "counter"}, hidden_coding_codes_absent, None),
        ("alphacode", {"first": 0}, hidden_alphacode_codes_absent, 40),
    ],
)
def test_other_games_messages_hold_exactly_each_seats_view(client, game, options, hidden, steps):
    made = create(client, game, [HUMAN, HUMAN], sit=0, options=options)
    code = made["code"]
    bob = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
    with (
        seated(client, code, made["token"]) as ann,
        seated(client, code, bob) as ben,
        seated(client, code) as spectator,
    ):
        if play_out({0: ann, 1: ben}, random.Random(3), steps=steps):
            spectator.until(lambda m: m["type"] == "table" and m["table"]["over"])
        else:
            spectator.state_at(ann.step)
    record = stored_record(client, code)
    for seat, player in ((0, ann), (1, ben), (None, spectator)):
        check_messages(player, seat, record)
        hidden(player, seat)

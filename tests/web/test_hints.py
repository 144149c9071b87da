"""Cracking-sheet hints: each game's belief engine on the asking seat's own view, off without notes."""

import pytest

from .wsclient import HUMAN, RANDOM, create, seated


def ask_hint(player):
    player.ws.send_json({"type": "hint"})
    return player.until(lambda m: m["type"] == "hint")


def test_coda_hint_gives_value_odds_for_tiles_the_seat_cannot_read(client):
    made = create(client, "coda", [HUMAN, RANDOM], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as me:
        assert me.log[0]["table"]["hints"] is True
        me.act({"type": "opening", "black": 2})
        me.until_view(lambda view: view["phase"] == "draw")
        hint = ask_hint(me)["hint"]
        own, theirs = hint["rows"][0], hint["rows"][1]
        assert all(odds is None for odds in own)  # my own tiles are known to me
        for odds, tile in zip(theirs, me.view["rows"][1]):
            assert odds and abs(sum(odds.values()) - 1) < 1e-3
            mine = {str(t["value"]) for t in me.view["rows"][0] if t["color"] == tile["color"]}
            assert not mine & set(odds)  # values I hold are impossible for them


def test_coding_hint_gives_symbol_odds_per_opponent(client):
    made = create(client, "coding", [HUMAN, RANDOM, RANDOM], sit=0)
    with seated(client, made["code"], made["token"]) as me:
        hint = ask_hint(me)["hint"]
        assert set(hint["seats"]) == {"1", "2"}
        letter_odds = hint["seats"]["1"]["letter"]
        assert letter_odds[me.view["own"]["letter"]] == 0  # my letter is not theirs
        assert abs(sum(letter_odds.values()) - 1) < 1e-3


def test_alphacode_hint_counts_the_codes_still_possible(client):
    made = create(client, "alphacode", [HUMAN, RANDOM], sit=0, options={"first": 0})
    with seated(client, made["code"], made["token"]) as me:
        me.act({"type": "random_code"})
        me.until_view(lambda view: view["phase"] == "play")
        assert ask_hint(me)["hint"]["candidates"] == 44099
        me.act({"type": "count", "row": "O", "column": "B"})
        me.until_view(lambda view: view["questions"])
        hint = ask_hint(me)["hint"]
        assert 0 < hint["candidates"] < 44099 and len(hint["squares"]) == 32


@pytest.mark.parametrize("game", ["coda", "coding"])
def test_no_hints_in_the_no_notes_variant(client, game):
    made = create(client, game, [HUMAN, RANDOM], sit=0, options={"notes": False})
    with seated(client, made["code"], made["token"]) as me:
        assert me.log[0]["table"]["hints"] is False
        assert ask_hint(me)["hint"] is None


def test_spectators_get_no_hints(client):
    made = create(client, "coda", [HUMAN, RANDOM])
    with seated(client, made["code"]) as spectator:
        spectator.ws.send_json({"type": "hint"})
        assert spectator.until(lambda m: m["type"] == "error")

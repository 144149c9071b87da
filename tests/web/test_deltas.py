"""State deltas: a client that applies them always holds exactly ``view(seat)``.

Random play of every game (2-4 players, the options that change what a view holds), each
audience followed through its deltas as they travel (JSON text), against the engine's view.
Broadcasts are skipped at random, so a delta also spans several steps, as after a resync.
"""

from __future__ import annotations

import json
import random

import httpx
import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

import codecrack
from codecrack.bench.messages import messages_benchmark
from codecrack.protocol.deltas import SentViews, apply, diff, followed
from codecrack.web.actions import player_view
from codecrack.web.connections import encode

from .conftest import fast_config
from .live_server import GUARD, live_server
from .wsclient import replay_frames

OPTIONS = {
    "coda": st.fixed_dictionaries(
        {
            "draw": st.sampled_from(["classic", "deck"]),
            "dashes": st.booleans(),
            "empty_deck": st.sampled_from(["reveal", "eliminate"]),
            "memory": st.booleans(),
            "clock": st.booleans(),
            "rounds": st.sampled_from([1, 3]),
            "notes": st.booleans(),
        }
    ),
    "coding": st.fixed_dictionaries(
        {"mode": st.sampled_from(["counter-revised", "counter", "speed", "one-shot"]), "notes": st.booleans()}
    ),
    "alphacode": st.fixed_dictionaries(
        {"real_words": st.booleans(), "handicap": st.sampled_from([0, 1, 2, 3]), "letters": st.sampled_from([10, 20])}
    ),
}
STEPS = {"coda": 400, "coding": 250, "alphacode": 60}  # Alphabet Code's random games are long: a part of one


def exact(data) -> bytes:
    """JSON text with sorted keys: equal exactly when the data are equal as JSON (1, 1.0 and true differ)."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def travelled(data):
    return json.loads(encode(data))


@st.composite
def tables(draw):
    game, players = draw(st.sampled_from(sorted(OPTIONS))), draw(st.integers(2, 4))
    options = draw(OPTIONS[game])
    if game == "alphacode" and players > 2:
        options["handicap"] = 0  # a 2-player rule
    return game, players, options, draw(st.integers(0, 2**32))


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), skips=st.lists(st.booleans(), max_size=40))
def test_applying_each_delta_gives_exactly_the_audiences_view(table, skips):
    game_name, players, options, seed = table
    game = codecrack.new_game(game_name, players=players, seed=seed, **options)
    sent = SentViews()

    def view_of(seat):
        return player_view(game.view(seat))

    audiences = [None, *range(players)]
    held = {seat: travelled(sent.current(seat, 0, view_of)) for seat in audiences}
    steps = {seat: 0 for seat in audiences}
    rng = random.Random(seed)
    for step in range(1, STEPS[game_name] + 1):
        if game.over:
            break
        seat = rng.choice(sorted(game.to_move))
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        if skips and skips[step % len(skips)]:
            continue  # this step's broadcast is skipped: the next delta spans two steps or more
        for audience in audiences:
            base, changes = sent.changes(audience, step, view_of)
            message = travelled({"type": "delta", "base": base, "step": step, "changes": changes})
            steps[audience], held[audience] = followed(held[audience], steps[audience], message)
            assert exact(held[audience]) == exact(player_view(game.view(audience)))


def test_a_list_that_only_grows_travels_as_its_new_items():
    old = {"history": [{"type": "deal", "seat": n} for n in range(500)]}
    new = {"history": [*old["history"], {"type": "guess", "hit": True}]}
    assert diff(old, new) == [["add", ["history"], [{"type": "guess", "hit": True}]]]


def test_a_value_that_changes_type_only_is_sent():
    assert diff({"a": 1, "b": [0, 2]}, {"a": 1.0, "b": [False, 2]}) == [
        ["set", ["a"], 1.0]
    ]  # a list's items: see same()
    assert diff([0, 2], [False, 2]) == [["set", [0], False]]


def test_a_list_whose_items_mostly_changed_is_sent_whole():
    assert diff({"rows": [1, 2, 3]}, {"rows": [4, 5, 3]}) == [["set", ["rows"], [4, 5, 3]]]
    assert diff({"rows": [1, 2]}, {"rows": [0, 1, 2]}) == [["set", ["rows"], [0, 1, 2]]]


def test_applying_leaves_the_earlier_view_as_it_was():
    old = {"rows": [[{"value": None}]], "history": [1]}
    before = json.dumps(old)
    new = apply(old, [["set", ["rows", 0, 0, "value"], 7], ["add", ["history"], [2]], ["del", ["rows"]]])
    assert new == {"history": [1, 2]} and json.dumps(old) == before


def test_a_delta_that_does_not_fit_the_held_view_is_refused():
    message = {"type": "delta", "base": 4, "step": 5, "changes": []}
    try:
        followed({"a": 1}, 3, message)
    except ValueError as error:
        assert "step 4" in str(error)
    else:
        raise AssertionError("a delta from another step was applied")


def test_an_audience_without_a_view_gets_none_and_a_forgotten_one_starts_again():
    sent = SentViews()

    def view_of(seat):
        return {"seat": seat}

    assert sent.changes(0, 3, view_of) is None
    sent.current(0, 3, view_of)
    sent.current(None, 3, view_of)
    sent.keep_only({None})
    assert sent.changes(0, 4, view_of) is None and sent.changes(None, 4, view_of) == (3, [])


def test_a_real_server_sends_deltas_that_rebuild_every_view_and_a_resync_sends_the_whole_view(tmp_path):
    """Three bots play Coda on a real server; a spectator follows every step through deltas, asks
    for the whole view on the way and goes on from it. Its views are the replay's, step by step."""
    with live_server(fast_config(tmp_path, ai_pace=0.02)) as (host, port):  # the spectator is in before the end
        base = f"http://{host}:{port}"
        made = httpx.post(
            f"{base}/api/tables",
            timeout=GUARD,
            json={"game": "coda", "options": {"dashes": True}, "seats": [{"kind": "ai", "agent": "random"}] * 3},
        ).json()
        views, kinds = {}, []
        with connect(f"ws://{host}:{port}/ws/{made['code']}", open_timeout=GUARD) as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            step, view = -1, None
            while view is None or view["result"] is None:
                message = json.loads(ws.recv(timeout=GUARD))
                if message["type"] not in ("state", "delta"):
                    continue
                kinds.append(message["type"])
                step, view = followed(view, step, message)
                views[step] = view
                if len(kinds) == 10:
                    ws.send(json.dumps({"type": "resync"}))
        frames = replay_frames(lambda path, headers: httpx.get(base + path, timeout=GUARD), made["code"])
    assert kinds[0] == "state" and kinds.count("state") == 2 and kinds.count("delta") >= 20
    assert sorted(views)[-1] == len(frames) - 1
    for step, view in views.items():
        assert exact(view) == exact(frames[step])


def test_the_messages_benchmark_reports_both_ways_for_every_action():
    report = messages_benchmark("coda", games=1, seed=3)
    assert report["actions"] > 10 and report["audiences"] == 3
    assert report["median_per_action"]["delta_bytes"] < report["median_per_action"]["whole_bytes"]

"""Whole games: play always ends, replays match, junk changes nothing, nothing leaks."""

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import codecrack
from codecrack.agents import RandomAgent
from codecrack.core.runner import run_game
from codecrack.games.alphacode import legal_codes

from .helpers import CODE_B, CODE_C, circle, declare, letters, spend_turn

SETUPS = [
    (2, {}),
    (2, {"handicap": 3}),
    (2, {"letters": 20}),
    (2, {"columns": 15, "rows": 7}),
    (2, {"real_words": True}),
    (3, {}),
    (4, {"creator": 0}),
    (6, {"letters": 20}),
]


def random_game(players, options, seed):
    game = codecrack.new_game("alphacode", players=players, seed=seed, **options)
    run_game(game, {s: RandomAgent(seed=seed * 10 + s) for s in range(players)})
    return game


@pytest.mark.parametrize("players, options", SETUPS)
def test_random_play_always_ends_and_replays_match(players, options):
    for seed in (1, 2):
        game = random_game(players, options, seed)
        assert game.over and game.to_move == frozenset()
        assert set(game.result["winners"]) <= set(range(players)) and game.result["winners"]
        record = json.loads(json.dumps(game.record()))
        again = codecrack.replay(record)
        for seat in [None, *range(players)]:
            view = game.view(seat)
            assert json.loads(json.dumps(view)) == view
            assert again.view(seat) == view


def test_draws_replay_into_new_rounds_and_still_end():
    for seed, rounds in ((7, 3), (4, 2)):
        game = random_game(2, {}, seed)
        assert game.result["rounds"] == rounds and len(game.view(0)["past_rounds"]) == rounds - 1
        assert [e["round"] for e in game.view(0)["history"] if e["type"] == "new_round"] == list(range(2, rounds + 1))


JUNK = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=5),
    st.dictionaries(
        st.sampled_from(["type", "row", "column", "letters", "seat"]),
        st.one_of(
            st.none(),
            st.integers(),
            st.text(max_size=3),
            st.sampled_from(["count", "filled", "declare", "code", "pass", "O", "D", "N"]),
            st.lists(
                st.dictionaries(st.sampled_from(["letter", "row", "column"]), st.text(max_size=2), max_size=3),
                max_size=6,
            ),
        ),
        max_size=4,
    ),
)


@settings(max_examples=40, deadline=None)
@given(junk=JUNK, moves=st.integers(0, 25), players=st.sampled_from([2, 3]))
def test_junk_actions_change_nothing(junk, moves, players):
    game = codecrack.new_game("alphacode", players=players, seed=moves, first=0)
    rng = random.Random(moves)
    for _ in range(moves):
        if game.over:
            break
        seat = min(game.to_move)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    seat = min(game.to_move) if game.to_move else 0
    before = json.dumps([game.view(s) for s in [None, *range(players)]]), json.dumps(game.record())
    try:
        game.apply(seat, junk)
    except codecrack.IllegalAction:
        after = json.dumps([game.view(s) for s in [None, *range(players)]]), json.dumps(game.record())
        assert after == before


def consistent_codes(view, target):
    """Indices of the legal codes that agree with every public answer about ``target``'s code."""
    return np.flatnonzero(legal_codes().consistent(q for q in view["questions"] if q["target"] == target))


def swap_code(game, seat, index):
    from codecrack.games.alphacode.codes import parse_code

    table = legal_codes()
    game.codes[seat] = parse_code(table.code_json(index), game.sheet, game.letters)


@pytest.mark.parametrize("moves", [2, 9, 20])
def test_a_duel_view_does_not_depend_on_the_opponents_hidden_code(moves):
    game = codecrack.new_game("alphacode", players=2, seed=moves, first=0)
    rng = random.Random(moves)
    for _ in range(moves):
        seat = min(game.to_move)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    for seat in (0, 1):
        views = [json.dumps(game.view(s)) for s in (seat, None)]
        hidden = 1 - seat
        original = game.codes[hidden]
        others = consistent_codes(game.view(None), hidden)
        assert len(others) > 1
        swap_code(game, hidden, int(others[rng.randrange(len(others))]))
        assert [json.dumps(game.view(s)) for s in (seat, None)] == views
        game.codes[hidden] = original


def test_solvers_see_neither_the_creators_code_nor_each_others_submissions():
    game = circle(4)
    spend_turn(game, 0)
    game.apply(1, declare(CODE_B))
    spend_turn(game, 2)
    solver_views = [json.dumps(game.view(s)) for s in (0, 2, None)]
    others = consistent_codes(game.view(None), 3)
    assert len(others) > 1
    swap_code(game, 3, int(others[-1]))
    # seat 1 had submitted something else (a declaration is frozen once made: replaced, not changed)
    game.declarations[0] = {**game.declarations[0], "letters": letters(CODE_C)}
    assert [json.dumps(game.view(s)) for s in (0, 2, None)] == solver_views
    assert json.dumps(game.view(1)) != solver_views[0]

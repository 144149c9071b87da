"""Beliefs read from real views: the truth is always among the counted worlds, and small
positions taken from real games match brute force."""

from __future__ import annotations

import pytest

import codecrack
from codecrack.agents import RandomAgent
from codecrack.games.coda.belief import DASH, solve
from codecrack.games.coda.observe import COLORS, OwnMemory, guesser_lacks, position_from_view, value_code

from .brute import brute_counts

OPTIONS = [{}, {"dashes": True}, {"dashes": True, "memory": True}, {"draw": "deck", "empty_deck": "eliminate"}]


def truth(game, seat, index):
    tile = game.rows[seat][index]
    return DASH if tile.value == "-" else tile.value


def play_and_check(game, check):
    agents = {s: RandomAgent(seed=s + 11 * game.seed) for s in range(game.players)}
    while not game.over:
        seat = min(game.to_move)
        check(game)
        game.apply(seat, agents[seat].act(game.view(seat)))


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", [2, 3])
def test_true_values_are_always_possible(options, players):
    game = codecrack.new_game("coda", players=players, seed=5, **options)

    def check(game):
        for seat in range(game.players):
            view = game.view(seat)
            memory = {t.id: 1 << truth(game, seat, i) for i, t in enumerate(game.rows[seat])}
            belief = solve(position_from_view(view, memory))
            assert belief.total > 0
            for s, row in enumerate(view["rows"]):
                for i, tile in enumerate(row):
                    assert belief.probs[s][i][truth(game, s, i)] > 0, (s, i)

    play_and_check(game, check)


def test_small_real_positions_match_brute_force():
    checked = 0
    for seed in range(6):
        game = codecrack.new_game("coda", players=2, seed=seed, dashes=seed % 2 == 1)

        def check(game):
            nonlocal checked
            position = position_from_view(game.view(0))
            hidden = sum(t.value is None for row in position.rows for t in row)
            if 0 < hidden <= 3:
                total, _ = brute_counts(position)
                assert solve(position).total == total
                checked += 1

        play_and_check(game, check)
    assert checked >= 5


def test_public_view_hides_own_values():
    game = codecrack.new_game("coda", players=2, seed=1)
    for seat in (0, 1):
        game.apply(seat, {"type": "opening", "black": 2})
    position = position_from_view(game.view(0), public=True)
    assert all(tile.value is None for row in position.rows for tile in row)


def test_guessers_lack_what_they_name():
    rows = [[{"id": 0, "color": "black"}, {"id": 1, "color": "white"}], [{"id": 0, "color": "black"}]]
    events = [
        {"type": "draw", "seat": 0, "color": "black"},
        {"type": "guess", "seat": 0, "target": 1, "tile": 0, "index": 0, "color": "black", "value": 4, "hit": True},
        {"type": "guess", "seat": 0, "target": 1, "tile": 0, "index": 0, "color": "white", "value": 7, "hit": False},
        {"type": "insert", "seat": 0, "tile": 2, "index": 2, "color": "white", "revealed": True, "value": 9},
    ]
    rows[0].append({"id": 2, "color": "white"})
    lacks = guesser_lacks(events, rows)
    assert lacks == {(0, 0): 1 << 4, (0, 1): 1 << 7, (0, 2): 1 << 7}


def test_own_memory_keeps_drawn_and_opening_values():
    game = codecrack.new_game("coda", players=2, seed=3, memory=True)
    memories = {0: OwnMemory(), 1: OwnMemory()}
    agents = {s: RandomAgent(seed=s) for s in (0, 1)}
    while not game.over:
        seat = min(game.to_move)
        view = game.view(seat)
        memories[seat].observe(view)
        for i, tile in enumerate(game.rows[seat]):
            if tile.id in memories[seat].masks:
                assert memories[seat].masks[tile.id] == 1 << truth(game, seat, i)
        game.apply(seat, agents[seat].act(view))
    assert value_code("-") == DASH


def test_opening_dash_in_hand_is_known_elsewhere():
    for seed in range(40):
        game = codecrack.new_game("coda", players=2, seed=seed, dashes=True)
        for seat in (0, 1):
            game.apply(seat, {"type": "opening", "black": 2})
        for seat in (0, 1):
            view = game.view(seat)
            if view["unplaced"]:
                position = position_from_view(view)
                assert (COLORS[view["unplaced"][0]["color"]], DASH) in position.elsewhere
                return
    raise AssertionError("no opening dash dealt in 40 seeds")


def test_a_resampled_world_keeps_a_drawn_tile_that_turned_face_up():
    import random

    from codecrack.games.coda.worlds import resample

    game = codecrack.new_game("coda", players=2, seed=4, first=0)
    for seat in (0, 1):
        game.apply(seat, {"type": "opening", "black": 2})
    game.apply(0, {"type": "draw", "color": "black"})
    wrong = (game.rows[1][0].value + 1) % 12
    game.apply(0, {"type": "guess", "target": 1, "index": 0, "color": game.rows[1][0].color, "value": wrong})
    assert game.view(1)["drawn"]["revealed"]  # a miss: the drawn tile waits face up to be placed
    for seed in range(6):
        world = resample(game, 1, random.Random(seed))
        assert world.view(1) == game.view(1) and world.drawn.value == game.drawn.value

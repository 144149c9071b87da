"""Reading the opponents' guesses: each guess rebuilt as its guesser saw the table, worlds listed
exactly, reweighted marginals, and a hard that reads them still decides from its view alone."""

from __future__ import annotations

import numpy as np
import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.games.coda.belief import solve
from codecrack.games.coda.observe import position_from_view, value_code
from codecrack.games.coda.reading import ReadBelief, Reading, enumerate_worlds, moments
from tests.coda_ai.test_agents import swap_unseen

TABLES = [(2, {}), (2, {"dashes": True}), (3, {}), (4, {})]


def medium_views(players, seed, **options):
    """Every turn-opening guess view of a game of mediums, with the game at that point."""
    game = codecrack.new_game("coda", players=players, seed=seed, **options)
    agents = {s: make_agent("medium", "coda", seed=s) for s in range(players)}
    while not game.over:
        seat = min(game.to_move)
        view = game.view(seat)
        if view["phase"] == "guess" and not view["hits_this_turn"]:
            yield game, view
        game.apply(seat, agents[seat].act(view))


def true_values(game, position):
    return {
        (s, i): value_code(game.rows[s][i].value)
        for s, row in enumerate(position.rows)
        for i, tile in enumerate(row)
        if tile.value is None
    }


@pytest.mark.parametrize("players,options", TABLES)
def test_a_medium_guess_is_the_likeliest_from_the_guessers_side_in_the_true_world(players, options):
    # medium names the likeliest guess of its own belief: rebuilt with the guesser's true tiles,
    # the moment must give the named guess the top chance.
    checked = 0
    for seed in range(2):
        for game, view in medium_views(players, seed, **options):
            position = position_from_view(view, read_guessers=True)
            for moment in moments(view, position, recent=100):
                seen = moment.position(true_values(game, position))
                belief = solve(seen)
                target, index, _, value = moment.guess
                top = max(
                    belief.probs[s][i].max()
                    for s, row in enumerate(seen.rows)
                    if s != moment.guesser
                    for i, tile in enumerate(row)
                    if tile.value is None
                )
                assert belief.probs[target][index][value] == pytest.approx(top)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("players,options", TABLES)
def test_listed_worlds_are_the_counted_worlds(players, options):
    for n, (game, view) in enumerate(medium_views(players, 3, **options)):
        position = position_from_view(view, read_guessers=True)
        listed = enumerate_worlds(position, 50_000)
        if listed is None:
            continue
        assert len(listed) == solve(position).total
        assert len({tuple(sorted(world.items())) for world in listed}) == len(listed)
        assert true_values(game, position) in listed


def test_a_guesser_who_names_anything_changes_nothing():
    reading = Reading(sharpness=20, slip=1.0, recent=6, listed=10_000, seed=0)
    for game, view in medium_views(2, 4):
        position = position_from_view(view, read_guessers=True)
        belief = solve(position)
        read = reading.reweigh(view, position, belief, 10_000)
        for s, row in enumerate(belief.probs):
            for i, probs in enumerate(row):
                assert np.allclose(read.probs[s][i], probs)


def test_reading_sharpens_the_belief_towards_the_true_row():
    # Against mediums, the reweighted marginals put more weight on the true values on average.
    reading = Reading(sharpness=20, slip=0.1, recent=6, listed=10_000, seed=0)
    before = after = 0.0
    for seed in range(3):
        for game, view in medium_views(2, seed):
            position = position_from_view(view, read_guessers=True)
            belief = solve(position)
            read = reading.reweigh(view, position, belief, 10_000)
            if not isinstance(read, ReadBelief):
                continue
            for (s, i), value in true_values(game, position).items():
                before += np.log(belief.probs[s][i][value])
                after += np.log(read.probs[s][i][value])
    assert after > before


@pytest.mark.parametrize(
    "players,name",
    [
        (2, "hard"),
        (2, "hard:read_listed=0:read_worlds=12"),
        (2, "hard:duel_playouts=400:min_worlds=2"),
        (3, "hard:read_players=[3]"),
        (4, "hard:playouts=150"),
    ],
)
def test_reading_hard_ignores_values_the_seat_cannot_know(players, name):
    game = codecrack.new_game("coda", players=players, seed=23)
    agents = {s: make_agent("medium", "coda", seed=s) for s in range(players)}
    read = 0
    while not game.over:
        seat = min(game.to_move)
        view = game.view(seat)
        twin = swap_unseen(game, seat)
        if twin is not None and view["phase"] in ("draw", "guess"):
            assert twin.view(seat) == view
            first, second = make_agent(name, "coda", seed=5), make_agent(name, "coda", seed=5)
            assert first.act(view) == second.act(twin.view(seat))
            read += bool(moments(view, position_from_view(view, read_guessers=True), recent=6))
        game.apply(seat, agents[seat].act(view))
    assert read >= 3

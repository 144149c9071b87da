"""The exact 2-player endgame of ``hard``: its pieces on hand-made positions whose answers are
known, and its fairness (a re-deal of what the seat cannot see changes no decision)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.games.coda.belief import BLACK, WHITE, Position, Tile, solve
from codecrack.games.coda.endgame import CLEARED, MISSED, STOPPED, Endgame, race
from codecrack.games.coda.observe import position_from_view
from tests.coda.helpers import guess, rigged
from tests.coda_ai.test_agents import swap_unseen


def hard_action(game, **settings):
    return make_agent("hard", "coda", seed=3, **settings).act(game.view(game.current))


def test_race_counts_turns_alternately():
    assert race(0.5, 0.5) == pytest.approx(0.5 / 0.75)  # 1/2 + 1/4 * 1/2 + ...
    assert race(0.2, 0.0) == pytest.approx(1.0)  # never attacked back: clears some turn


def test_clear_is_the_best_chain_of_guesses():
    # A white tile between black 2 and black 5 (white 2, 3 or 4), then a black 9 or 10 or 11:
    # flipping both in one turn: 1/3 * 1/3 whichever goes first.
    row = [Tile(BLACK, 2), Tile(WHITE, None), Tile(BLACK, 5), Tile(BLACK, 8), Tile(BLACK, None)]
    position = Position([[], row])
    assert Endgame().clear(position, solve(position), 1) == pytest.approx(1 / 9)


def outcomes(search, position, truth):
    """``[model, outcome]`` chances of the opponent's reply from ``position``."""
    out = np.zeros((len(search.rivals), 3))
    for weights, outcome, _ in search.reply(position, 0, truth, 0):
        out[:, outcome] += weights
    return out


def test_a_reply_clears_a_row_that_anyone_can_read():
    # Black between black 2 and black 4 is a black 3: every model names it and wins.
    position = Position([[Tile(BLACK, 2), Tile(BLACK, None), Tile(BLACK, 4)], [Tile(WHITE, 6)]])
    out = outcomes(Endgame(), position, [2, 3, 4])
    assert out[:, CLEARED].tolist() == [1.0, 1.0]


def test_a_reply_splits_ties_and_stops_by_its_threshold():
    # Seat 0's row: black 2, a black 3 (it can only be that), black 4, a white 7 (white 4-11
    # as far as anyone knows): both models name the black 3, then stop at a 1-in-8 guess.
    row = [Tile(BLACK, 2), Tile(BLACK, None), Tile(BLACK, 4), Tile(WHITE, None)]
    position = Position([row, [Tile(WHITE, 0)]])
    out = outcomes(Endgame(), position, [2, 3, 4, 7])
    assert out[:, STOPPED].tolist() == [1.0, 1.0]
    # A first guess on a tile of two equal values hits half the time (the tie is averaged).
    two = Position([[Tile(BLACK, 2), Tile(WHITE, None), Tile(BLACK, 4)], [Tile(WHITE, 0)]])
    out = outcomes(Endgame(), two, [2, 3, 4])
    assert out[:, CLEARED].tolist() == [0.5, 0.5] and out[:, MISSED].tolist() == [0.5, 0.5]


def test_a_reply_that_stops_leaves_a_threat_for_the_next_turn():
    # After naming the black 3 the opponent stops at the 1-in-8 white; its next turn names
    # that white at once (the black 3 is face up by then), right 1 time in 8.
    row = [Tile(BLACK, 2), Tile(BLACK, None), Tile(BLACK, 4), Tile(WHITE, None)]
    position = Position([row, [Tile(WHITE, 0)]])
    search = Endgame()
    (weights, outcome, after), = search.reply(position, 0, [2, 3, 4, 7], 0)
    assert outcome == STOPPED and search.threat(after, 0, [2, 3, 4, 7]).tolist() == [0.125, 0.125]


def test_a_certain_last_tile_is_named():
    game = rigged(["B0 w1 W6", "b2 w2 B3"], "b7 w7", drawn="b5")
    guess(game, 1, 0, "b2")
    action = hard_action(game)
    assert action["type"] == "guess"


def test_with_the_opponent_sure_to_win_a_long_shot_beats_stopping():
    # Hard's row is black 2, black 3 (hidden), black 4; its drawn white 3 would hide between
    # black 3 and black 4 and be just as certain: whatever it does, the opponent names both next
    # turn. Its last hope is the opponent's last white tile (one of several values), now.
    game = rigged(["B2 b3 B4", "b0 w9 B11"], "b7 w7", drawn="w3")
    guess(game, 1, 0, "b0")
    assert game.hits == 1
    action = hard_action(game)
    assert action["type"] == "guess" and action["index"] == 1


def endgame_views(seed: int):
    """Positions of a medium game where a 2-player hard would search its endgame."""
    game = codecrack.new_game("coda", players=2, seed=seed)
    agents = {s: make_agent("medium", "coda", seed=s) for s in (0, 1)}
    search = Endgame()
    while not game.over:
        seat = min(game.to_move)
        view = game.view(seat)
        if view["phase"] == "guess" and view["drawn"]:
            position = position_from_view(view)
            if search.applies(position, position_from_view(view, public=True), seat, 1 - seat):
                yield game, seat, view
        game.apply(seat, agents[seat].act(view))


@pytest.mark.parametrize("seed", [4, 21])
def test_the_endgame_ignores_values_the_seat_cannot_know(seed):
    compared = 0
    for game, seat, view in endgame_views(seed):
        twin = swap_unseen(game, seat)
        if twin is None:
            continue
        assert twin.view(seat) == view
        first, second = make_agent("hard", "coda", seed=5), make_agent("hard", "coda", seed=5)
        assert first.act(view) == second.act(twin.view(seat))
        compared += 1
    assert compared >= 1


def test_the_endgame_samples_rows_only_from_the_seat_belief():
    position = Position([[Tile(BLACK, 1)], [Tile(WHITE, None), Tile(BLACK, None), Tile(WHITE, None)]])
    belief = solve(position)
    rows = Endgame(worlds=5).rows(position, belief, 1, random.Random(0))
    assert len(rows) == 5
    for world in rows:
        assert sorted(world) == [0, 1, 2] and all(belief.probs[1][i][v] > 0 for i, v in world.items())
    every = Endgame(worlds=10**6).rows(position, belief, 1, random.Random(0))
    assert len(every) == belief.total and len({tuple(sorted(w.items())) for w in every}) == belief.total

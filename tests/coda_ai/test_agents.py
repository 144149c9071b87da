"""The Coda tiers: they play every variant to the end, see only their view, and are deterministic."""

from __future__ import annotations

import copy

import pytest

import codecrack
from codecrack.agents import agent_names, make_agent
from codecrack.core.runner import run_game
from codecrack.games.coda.tiles import sort_key

AGENTS = [name for name in agent_names("coda") if name != "random"]  # tiers and baselines
SEARCHING_HARD = "hard:playouts=400:min_worlds=2"  # hard with playouts on every decision it can afford
VARIANTS = [
    {},
    {"dashes": True},
    {"memory": True},
    {"dashes": True, "memory": True},
    {"draw": "deck"},
    {"empty_deck": "eliminate"},
    {"rounds": 3},
]


@pytest.mark.parametrize("name", sorted(AGENTS))
@pytest.mark.parametrize("options", VARIANTS)
def test_tier_finishes_every_variant_against_random(name, options):
    game = codecrack.new_game("coda", players=2, seed=4, **options)
    run_game(game, {0: make_agent(name, "coda", seed=1), 1: make_agent("random", "coda", seed=2)})
    assert game.over


def test_tiers_share_a_four_player_table():
    game = codecrack.new_game("coda", players=4, seed=9)
    agents = {seat: make_agent(name, "coda", seed=seat) for seat, name in enumerate(["hard", "medium", "easy", "random"])}
    run_game(game, agents)
    assert game.over


def test_same_seed_same_game():
    records = []
    for _ in range(2):
        game = codecrack.new_game("coda", players=3, seed=12)
        run_game(game, {seat: make_agent(name, "coda", seed=seat) for seat, name in enumerate(["hard", "medium", "easy"])})
        records.append(game.record())
    assert records[0] == records[1]


def swap_unseen(game, seat):
    """A copy of ``game`` in which an opponent's face-down tile and a pile tile of the same
    colour trade values, where the row stays sorted: a world ``seat`` cannot tell apart."""
    for owner, row in enumerate(game.rows):
        if owner == seat:
            continue
        for index, tile in enumerate(row):
            if tile.revealed or tile.value == "-":
                continue
            numbered = [t for t in row if t.value != "-"]
            at = numbered.index(tile)
            low = sort_key(numbered[at - 1]) if at else (-1, 0)
            high = sort_key(numbered[at + 1]) if at + 1 < len(numbered) else (99, 0)
            for spare in game.pile:
                if spare.color == tile.color and spare.value != "-" and low < sort_key(spare) < high:
                    twin = copy.deepcopy(game)
                    mine = twin.rows[owner][index]
                    other = next(t for t in twin.pile if t.color == spare.color and t.value == spare.value)
                    mine.value, other.value = other.value, mine.value
                    return twin
    return None


@pytest.mark.parametrize("name", sorted(AGENTS) + [SEARCHING_HARD])
def test_decision_ignores_values_the_seat_cannot_know(name):
    game = codecrack.new_game("coda", players=2, seed=21)
    agents = {s: make_agent("medium", "coda", seed=s) for s in (0, 1)}
    compared = 0
    while not game.over and compared < 6:
        seat = min(game.to_move)
        view = game.view(seat)
        twin = swap_unseen(game, seat)
        if twin is not None and view["phase"] in ("draw", "guess"):
            twin_view = twin.view(seat)
            assert twin_view == view
            assert any(a.value != b.value for r, s in zip(game.rows, twin.rows) for a, b in zip(r, s))
            first, second = make_agent(name, "coda", seed=5), make_agent(name, "coda", seed=5)
            assert first.act(view) == second.act(twin_view)
            compared += 1
        game.apply(seat, agents[seat].act(view))
    assert compared >= 3


def test_settings_are_checked():
    assert make_agent("hard", "coda", seed=0, breadth=2).breadth == 2
    with pytest.raises(TypeError):
        make_agent("hard", "coda", seed=0, nonsense=1)

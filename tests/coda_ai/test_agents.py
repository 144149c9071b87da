"""The Coda tiers: they play every variant to the end, see only their view, and are deterministic."""

from __future__ import annotations

import copy

import pytest

import codecrack
from codecrack.agents import agent_names, make_agent
from codecrack.core.runner import run_game
from codecrack.games.coda import agents as agents_module
from codecrack.games.coda.belief import DASH
from codecrack.games.coda.tiles import sort_key
from tests.coda.helpers import rigged

AGENTS = [name for name in agent_names("coda") if name != "random"]  # tiers and baselines
SEARCHING_HARD = "hard:duel_playouts=400:min_worlds=2"  # 2-player hard with playouts on every decision it can afford
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
    agents = {
        seat: make_agent(name, "coda", seed=seat) for seat, name in enumerate(["hard", "medium", "easy", "random"])
    }
    run_game(game, agents)
    assert game.over


def test_same_seed_same_game():
    records = []
    for _ in range(2):
        game = codecrack.new_game("coda", players=3, seed=12)
        run_game(
            game, {seat: make_agent(name, "coda", seed=seat) for seat, name in enumerate(["hard", "medium", "easy"])}
        )
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


def spy_on_exposures(monkeypatch) -> list:
    """The face-up values (``None``: face down) hard assumes when it weighs where a tile goes."""
    valued = []
    real = agents_module.exposure_after

    def spy(public, view, index, color, value):
        valued.append(value)
        return real(public, view, index, color, value)

    monkeypatch.setattr(agents_module, "exposure_after", spy)
    return valued


def test_after_a_clock_timeout_a_drawn_dash_never_goes_in_face_down(monkeypatch):
    # Issue 9: after a timeout hard placed its drawn dash as if it went in face down. Now the
    # engine places a timed-out tile itself (face up); should hard ever be asked, it must value
    # the dash face up.
    game = rigged(["b1 w5 b9", "b2 w6 w8"], clock=True, dashes=True, drawn="w-")
    game.apply(0, {"type": "timeout"})
    if 0 in game.to_move:
        valued = spy_on_exposures(monkeypatch)
        game.apply(0, make_agent("hard", "coda", seed=0).act(game.view(0)))
        assert valued and set(valued) == {DASH}
    assert [t.revealed for t in game.rows[0] if t.value == "-"] == [True]


def test_hard_values_a_face_up_placement_after_a_miss(monkeypatch):
    game = rigged(["b1 w5 b9", "b2 w6 w8"], dashes=True, drawn="w-")
    game.apply(0, {"type": "guess", "target": 1, "index": 0, "color": "white", "value": 3})
    valued = spy_on_exposures(monkeypatch)
    assert make_agent("hard", "coda", seed=0).act(game.view(0))["type"] == "place"
    assert set(valued) == {DASH}


def test_hard_puts_a_number_next_to_a_dash_on_the_side_that_hides_more():
    game = rigged(["b3 w- b8", "w1 w2"], dashes=True, drawn="b5")
    game.apply(0, {"type": "guess", "target": 1, "index": 0, "color": "white", "value": 1})
    game.apply(0, {"type": "stop"})
    view = game.view(0)
    assert [a["index"] for a in view["legal_actions"]] == [1, 2]
    assert make_agent("hard", "coda", seed=0).act(view) in view["legal_actions"]
    assert make_agent("medium", "coda", seed=0).act(view) in view["legal_actions"]


def test_memory_with_dashes_keeps_the_own_tiles_after_the_arrangement():
    for seed in range(8):
        game = codecrack.new_game("coda", players=2, seed=seed, dashes=True, memory=True, first=0)
        agents = {s: make_agent("medium", "coda", seed=s) for s in (0, 1)}
        for _ in range(12):
            seat = min(game.to_move)
            game.apply(seat, agents[seat].act(game.view(seat)))
        for seat in (0, 1):
            for tile in game.rows[seat]:
                mask = agents[seat].memory.masks.get(tile.id)
                truth = DASH if tile.value == "-" else tile.value
                assert mask is None or mask == 1 << truth

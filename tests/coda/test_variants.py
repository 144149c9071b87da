"""The memory variant, the no-notes flag and the turn clock."""

import random

import pytest

import codecrack
from codecrack.core.nature import ForcedChance
from codecrack.games.coda.rules import CodaGame

from .helpers import guess, place, rigged
from .test_properties import random_action


def own_values(game, seat):
    return [t["value"] for t in game.view(seat)["rows"][seat]]


def test_memory_variant_shows_your_tiles_until_ready_then_hides_them():
    game = CodaGame(players=2, seed=6, memory=True, draw="deck", first=0)
    assert game.view(0)["phase"] == "memorize" and game.to_move == {0, 1}
    assert game.legal_actions(0) == [{"type": "ready"}]
    assert None not in own_values(game, 0)
    assert game.apply(0, {"type": "ready"}) == [{"type": "ready", "seat": 0}]
    assert own_values(game, 0) == [None] * 4 and None not in own_values(game, 1)
    game.apply(1, {"type": "ready"})
    assert game.phase == "draw" and own_values(game, 1) == [None] * 4


def test_memory_variant_shows_the_drawn_tile_until_placed_and_face_up_tiles_always():
    game = rigged(["b1 W5", "b2 w6"], "b3 w7", memory=True)
    assert own_values(game, 0) == [None, 5]
    game.apply(0, {"type": "draw", "color": "black"})
    drawn = game.view(0)["drawn"]
    assert drawn == {"color": "black", "value": 3, "revealed": False}
    guess(game, 1, 0, "b2")
    game.apply(0, {"type": "stop"})
    assert game.view(0)["drawn"] == drawn and game.view(1)["drawn"]["value"] is None
    place(game)
    assert game.view(0)["drawn"] is None and own_values(game, 0) == [None, None, 5]


def test_memory_opening_look_comes_after_the_classic_opening():
    game = CodaGame(players=2, seed=6, memory=True)
    game.apply(0, {"type": "opening", "black": 2})
    assert None not in own_values(game, 0)
    game.apply(1, {"type": "opening", "black": 2})
    assert game.view(1)["phase"] == "memorize"


def test_no_notes_flag_travels_in_the_view_and_the_engine_still_records_history():
    game = rigged(["b1", "b2"], "b3", notes=False)
    game.apply(0, {"type": "draw", "color": "black"})
    view = game.view(1)
    assert view["options"]["notes"] is False
    assert view["history"][-1] == {"type": "draw", "seat": 0, "color": "black"}


def test_timeout_needs_the_clock_and_is_never_offered_as_a_move():
    game = rigged(["b1", "b2"], "b3")
    with pytest.raises(codecrack.IllegalAction, match="clock=true"):
        game.apply(0, {"type": "timeout"})
    clocked = rigged(["b1", "b2"], "b3", clock=True)
    assert all(a["type"] != "timeout" for a in clocked.legal_actions(0))


def test_timeout_after_drawing_puts_the_drawn_tile_in_face_up_and_ends_the_turn():
    game = rigged(["b1 w5", "b2 w6"], "b3 w9", clock=True)
    game.apply(0, {"type": "draw", "color": "black"})
    guess(game, 1, 0, "b2")
    events = game.apply(0, {"type": "timeout"})
    assert [e["type"] for e in events] == ["timeout", "insert"]
    assert events[1]["revealed"] is True and events[1]["value"] == 3 and game.current == 1


@pytest.mark.parametrize("pile, color", [("b3 w7 w9", "white"), ("b3 w9", "black"), ("b3 b4 w9", "black")])
def test_timeout_before_drawing_draws_the_fuller_colour_for_you(pile, color):
    game = rigged(["b1 w5", "b2 w6"], pile, clock=True)
    events = game.apply(0, {"type": "timeout"})
    assert [e["type"] for e in events] == ["timeout", "draw", "insert"]
    assert events[1]["color"] == color and events[2]["revealed"] is True


def test_timeout_before_drawing_takes_the_top_of_the_deck():
    game = rigged(["b1 w5", "b2 w6"], "b3 w9", clock=True, draw="deck")
    events = game.apply(0, {"type": "timeout"})
    assert events[2]["value"] == 9


def test_timeout_with_an_empty_pile_counts_as_a_wrong_guess():
    game = rigged(["b1 w5", "b2 w6"], clock=True)
    game.apply(0, {"type": "timeout"})
    assert game.phase == "reveal" and game.current == 0
    game = rigged(["b1 w5", "b2 w6", "b3"], clock=True, empty_deck="eliminate")
    game.apply(0, {"type": "timeout"})
    assert game.eliminated == [0] and game.current == 1


def test_a_timed_out_tile_goes_to_a_legal_place_drawn_with_the_seed():
    landed = set()
    for seed in range(12):
        game = rigged(["b1 w5", "b2 w6"], clock=True, dashes=True, drawn="w-")
        game.rng.seed(seed)
        game.apply(0, {"type": "timeout"})
        landed.add(next(i for i, t in enumerate(game.rows[0]) if t.value == "-"))
        assert game.current == 1 and next(t for t in game.rows[0] if t.value == "-").revealed
    assert landed == {0, 1, 2}
    for seed in range(12):
        game = rigged(["b1 w- w5", "b2 w6"], clock=True, dashes=True, drawn="b3")
        game.rng.seed(seed)
        guess(game, 1, 0, "b2")
        game.apply(0, {"type": "stop"})
        game.apply(0, {"type": "timeout"})  # while placing: face down as it was
        landed.add(" ".join(str(t.value) for t in game.rows[0]))
        assert not any(t.revealed for t in game.rows[0])
    assert {"1 3 - 5", "1 - 3 5"} <= landed


def test_timeout_while_choosing_a_reveal_turns_up_the_leftmost():
    game = rigged(["b1 w5", "b2 w6"], clock=True)
    guess(game, 1, 0, "b4")
    game.apply(0, {"type": "timeout"})
    assert game.rows[0][0].revealed and game.current == 1


def test_a_timeouts_place_is_a_chance_event_a_forced_replay_repeats():
    """A timeout puts the drawn tile at a place drawn by chance: a replay that is given the chance
    log's outcomes under another seed ends in the same state (issue 26)."""
    rng, checked = random.Random(5), 0
    for seed in range(200):
        game = CodaGame(players=2, seed=seed, dashes=True, clock=True, draw="deck")
        places = 0
        while not game.over:
            seat, action = random_action(game, rng)
            if action["type"] == "timeout" and game.drawn is not None:
                places = max(places, len(game._places()))
            game.apply(seat, action)
        if places < 2:
            continue
        assert {kind for kind, _, _ in game.chance_log} <= set(game.nature(2, **game.options_json).chance)
        forced = ForcedChance([chosen for _, chosen, _ in game.chance_log])
        again = codecrack.replay({**game.record(), "seed": seed + 1000}, chance=forced)
        assert [again.view(s) for s in (None, 0, 1)] == [game.view(s) for s in (None, 0, 1)], seed
        checked += 1
        if checked == 10:
            return
    raise AssertionError(f"only {checked} games had a timeout with a choice of places")

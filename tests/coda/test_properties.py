"""Property tests over random legal play with every option combination."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import codecrack
from codecrack.agents import RandomAgent
from codecrack.core.runner import run_game
from codecrack.games.coda.tiles import full_set, sort_key

from .helpers import snapshot

OPTIONS = st.fixed_dictionaries(
    {
        "draw": st.sampled_from(["classic", "deck"]),
        "dashes": st.booleans(),
        "empty_deck": st.sampled_from(["reveal", "eliminate"]),
        "memory": st.booleans(),
        "notes": st.booleans(),
        "clock": st.booleans(),
        "rounds": st.sampled_from([1, 3]),
    }
)
GAMES = st.tuples(st.integers(2, 4), st.integers(0, 10**6), OPTIONS, st.integers(0, 10**6))
TURN_PHASES = {"draw", "guess", "place", "reveal"}
FEW = settings(max_examples=30, deadline=None)


def random_action(game, rng: random.Random) -> tuple[int, dict]:
    """A random legal action; with the clock on, now and then the host's timeout."""
    seat = rng.choice(sorted(game.to_move))
    if game.options.clock and game.phase in TURN_PHASES and rng.random() < 0.05:
        return seat, {"type": "timeout"}
    return seat, rng.choice(game.legal_actions(seat))


def start(case):
    """The case's new game and the random source of its moves."""
    players, seed, options, play_seed = case
    return codecrack.new_game("coda", players=players, seed=seed, **options), random.Random(play_seed)


def advance(game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.over:
            return
        game.apply(*random_action(game, rng))


def check_invariants(game) -> None:
    held = [t for row in game.rows for t in row] + game.pile + [t for hand in game.unplaced for t in hand]
    held += [game.drawn] if game.drawn is not None else []
    assert Counter((t.color, t.value) for t in held) == Counter(
        (t.color, t.value) for t in full_set(game.options.dashes)
    )
    for row in game.rows:
        numbered = [sort_key(t) for t in row if not t.is_dash]
        assert numbered == sorted(numbered)
        assert len({t.id for t in row}) == len(row)


def check_result(game) -> None:
    result = game.result
    assert len(result["rounds"]) == game.options.rounds and result["winners"]
    if game.options.rounds == 1:
        alive = [s for s in range(game.players) if s not in game.eliminated]
        assert result["scores"] is None and result["winners"] == alive == [result["rounds"][0]["winner"]]
    else:
        totals = [sum(r["points"][s] for r in result["rounds"]) for s in range(game.players)]
        assert result["scores"] == totals
        assert result["winners"] == [s for s in range(game.players) if totals[s] == max(totals)]


@FEW
@given(GAMES)
def test_random_legal_play_always_ends_with_a_valid_result(case):
    game, rng = start(case)
    while not game.over:
        advance(game, rng, 1)
        check_invariants(game)
    check_result(game)
    view = game.view(0)
    assert json.loads(json.dumps(view)) == view


@settings(max_examples=12, deadline=None)
@given(GAMES)
def test_a_replayed_record_gives_the_same_view_for_every_seat_at_every_step(case):
    game, rng = start(case)
    twin, _ = start(case)
    seats = [*range(game.players), None]
    while not game.over:
        seat, action = random_action(game, rng)
        assert game.apply(seat, action) == twin.apply(seat, json.loads(json.dumps(action)))
        assert [game.view(s) for s in seats] == [twin.view(s) for s in seats]
    again = codecrack.replay(json.loads(json.dumps(game.record())))
    views = [game.view(s) for s in seats]
    assert [again.view(s) for s in seats] == views == json.loads(json.dumps(views))
    assert again.result == game.result


JUNK = [
    None,
    3,
    "guess",
    [],
    {},
    {"type": 5},
    {"type": ["guess"]},
    {"type": {"draw": 1}},
    {"type": "guess"},
    {"type": "fly"},
    {"type": "draw", "color": "red"},
    {"type": "draw", "color": "black", "extra": 1},
    {"type": "opening", "black": 9},
    {"type": "opening", "black": "2"},
    {"type": "place", "index": -1},
    {"type": "place", "index": 99},
    {"type": "reveal", "index": 99},
    {"type": "ready", "now": True},
    {"type": "stop", "please": 1},
    {"type": "guess", "target": 0, "index": 0, "color": "black", "value": 12},
    {"type": "guess", "target": 1, "index": 0, "color": "black", "value": "5"},
    {"type": "guess", "target": None, "index": 0, "color": "black", "value": 5},
    {"type": "guess", "target": 9, "index": 0, "color": "white", "value": 5},
]
ACTION_DICTS = st.dictionaries(
    st.sampled_from(["type", "target", "index", "color", "value", "black"]),
    st.one_of(
        st.sampled_from(
            ["guess", "draw", "stop", "place", "reveal", "ready", "opening", "timeout", "black", "white", "-"]
        ),
        st.integers(-2, 13),
        st.booleans(),
        st.none(),
        st.floats(0, 3),
        st.lists(st.integers(0, 3)),
    ),
    min_size=1,
)


@FEW
@given(GAMES, st.lists(ACTION_DICTS, min_size=5, max_size=12), st.integers(0, 300))
def test_junk_or_illegal_actions_never_change_the_state(case, attempts, steps):
    game, rng = start(case)
    advance(game, rng, steps)
    before = snapshot(game)
    for action in [*JUNK, *attempts]:
        for seat in [*range(game.players), -1, game.players, "0"]:
            if accepted(game, seat, action):
                continue
            try:
                game.apply(seat, action)
            except codecrack.IllegalAction:
                continue
            raise AssertionError(f"seat {seat} could play {action!r}")
    assert snapshot(game) == before


def accepted(game, seat, action) -> bool:
    """Whether ``action`` is a legal move of ``seat`` now (listed, or the host's timeout)."""
    if seat not in game.to_move:
        return False
    timeout = isinstance(action, dict) and action.get("type") == "timeout" and len(action) == 1
    return action in game.legal_actions(seat) or (timeout and game.options.clock and game.phase in TURN_PHASES)


def unknown_tiles(game, seat: int) -> list:
    """Every tile whose value ``seat`` may not know right now (at the end: the pile only)."""
    if game.over:
        return list(game.pile)
    tiles = [t for other, row in enumerate(game.rows) if other != seat for t in row if not t.revealed]
    placing = game.phase == "place" and game.current == seat  # its sorted place shows where it lands
    if game.options.memory and seat in game.ready and not placing:
        tiles += [t for t in game.rows[seat] if not t.revealed]
    tiles += game.pile + [t for other, hand in enumerate(game.unplaced) if other != seat for t in hand]
    if game.drawn is not None and game.current != seat and not game.drawn_face_up:
        tiles.append(game.drawn)
    return tiles


def shuffle_within_colours(tiles: list, rng: random.Random) -> None:
    for color in ("black", "white"):
        same = [t for t in tiles if t.color == color]
        values = [t.value for t in same]
        rng.shuffle(values)
        for tile, value in zip(same, values):
            tile.value = value


@FEW
@given(GAMES, st.integers(0, 400), st.integers(0, 3))
def test_a_seat_sees_the_same_view_whatever_the_values_it_may_not_know(case, steps, seat):
    game, rng = start(case)
    seat %= game.players
    for _ in range(steps // 7 + 1):
        other = copy.deepcopy(game)
        shuffle_within_colours(unknown_tiles(other, seat), rng)
        assert other.view(seat) == game.view(seat)
        advance(game, rng, 7)


def test_the_record_of_a_four_player_game_with_dashes_replays_identically():
    game = codecrack.new_game("coda", players=4, seed=2024, dashes=True)
    run_game(game, {seat: RandomAgent(seed=seat) for seat in range(4)})
    record = json.loads(json.dumps(game.record()))
    assert any(action["type"] == "place" for _, action in record["actions"])
    again = codecrack.replay(record)
    seats = [0, 1, 2, 3, None]
    assert [again.view(s) for s in seats] == [game.view(s) for s in seats]
    assert again.result == game.result and again.record() == game.record()


def test_a_clone_is_independent_and_plays_on_identically():
    game = codecrack.new_game("coda", players=3, seed=5, dashes=True, rounds=3)
    rng = random.Random(2)
    for _ in range(40):
        game.apply(*random_action(game, rng))
    before = snapshot(game)
    first, second = game.clone(), game.clone()
    assert snapshot(first) == before
    for clone in (first, second):
        moves = random.Random(9)
        while not clone.over:
            clone.apply(*random_action(clone, moves))
    assert snapshot(game) == before and snapshot(first) == snapshot(second)

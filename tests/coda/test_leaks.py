"""Which hidden tile is a dash, and every hidden value, never shows in what a seat sees.

RULINGS: "Which hidden tile is a dash is hidden information, like its value. Nothing a seat
sees (tile ids, phases, who is to move, prompts) may tell it apart from a numbered tile."
"""

from __future__ import annotations

import itertools
import json

import pytest

import codecrack

from .pairs import Case, RelabelledCoda, run_pair


def dumps(view):
    return json.dumps(view, sort_keys=True)


def test_opening_dash_ids_tell_nothing():
    # Issue 9, 1.1: seed 6, seat 0 opens two blacks and holds the black dash, which it puts at
    # the far left. The counterpart deals it the black 1 in the dash's place.
    games = [
        codecrack.new_game("coda", players=2, seed=6, first=0, dashes=True),
        RelabelledCoda(
            {("black", "-"): ("black", 1), ("black", 1): ("black", "-")}, players=2, seed=6, first=0, dashes=True
        ),
    ]
    for game in games:
        for seat in (0, 1):
            game.apply(seat, {"type": "opening", "black": 2})
    games[0].apply(0, {"type": "ready", "dashes": [0]})
    games[1].apply(0, {"type": "ready"})
    for game in games:
        game.apply(1, {"type": "ready"})
    assert [t.value for t in games[0].rows[0]] == ["-", 1, 8, 9]
    assert [t.value for t in games[1].rows[0]] == [1, 1, 8, 9]
    assert dumps(games[0].view(1)) == dumps(games[1].view(1))


def test_a_drawn_dash_and_a_drawn_number_look_the_same_after_a_stop():
    # Issue 9, 1.2: seed 50 draws the black dash, seed 89 a numbered black tile.
    views = []
    for seed in (50, 89):
        game = codecrack.new_game("coda", players=2, seed=seed, first=0, dashes=True)
        for seat in (0, 1):
            game.apply(seat, {"type": "opening", "black": 2})
        for seat in (0, 1):
            game.apply(seat, {"type": "ready"})
        game.apply(0, {"type": "draw", "color": "black"})
        game.apply(0, {"type": "guess", "target": 1, "index": 0, "color": "white", "value": 1})
        game.apply(0, {"type": "stop"})
        views.append(game.view(None))
        assert views[-1]["phase"] == "place" and views[-1]["to_move"] == [0]
        game.apply(0, {"type": "place", "index": 2})  # the dash where seed 89's black 9 must go
        views.append(game.view(None))
    assert dumps(views[0]) == dumps(views[2]) and dumps(views[1]) == dumps(views[3])


OPTION_SETS = [
    {
        "draw": draw,
        "dashes": dashes,
        "empty_deck": empty_deck,
        "memory": memory,
        "clock": clock,
        "rounds": rounds,
        "notes": not memory,
    }
    for draw, dashes, empty_deck, memory, clock, rounds in itertools.product(
        ["classic", "deck"], [False, True], ["reveal", "eliminate"], [False, True], [False, True], [1, 3]
    )
]


def pair_cases(players: int, options: dict, count: int) -> list[Case]:
    """``count`` pairs for one table: seeds, watching seats and steering vary."""
    number = OPTION_SETS.index(options) * 10 + players
    return [
        Case(players, seed=1000 * number + n, options=options, seat=(number + n) % players, plan_seed=n)
        for n in range(count)
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_a_seat_cannot_tell_apart_games_that_differ_only_in_what_it_may_not_know(players, options):
    runs = []
    for case in pair_cases(players, options, 8):  # pairs that come apart early are followed by more
        runs.append(run_pair(case))
        if sum(run.compared for run in runs) >= 30:
            break
    assert sum(run.compared for run in runs) >= 30
    assert any(run.decisions for run in runs)


def test_the_pairs_carry_every_kind_of_hidden_difference():
    """The steering really plays the dash through stops, placements and private arrangements."""
    seen = set()
    for n in range(40):
        case = Case(
            2 + n % 3, seed=n, options={"dashes": True, "draw": ["classic", "deck"][n % 2]}, seat=n % 2, plan_seed=n
        )
        seen |= run_pair(case, tiers=()).seen
    assert seen >= {
        "drawn dash vs number",
        "stop with a dash in one game only",
        "place with a dash in one game only",
        "opening dash in one game only",
        "different private actions",
    }

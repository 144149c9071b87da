"""Alphabet Code's views share what never changes (docs/engine.md, "Views share what never
changes"): the answers, declarations and past rounds are frozen when they happen, the parts no step
changes are made once per option set, the legal questions once per sheet. A view must still be
exactly what a fresh game replayed to the same step shows, and changing a view must change nothing else."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import codecrack
from codecrack.core.detached import detached
from codecrack.core.frozen import FrozenDict
from tests.alphacode.helpers import CODE_A, CODE_B, ask, declare, duel
from tests.core.test_shared_views import vandalize

ROOT = Path(__file__).resolve().parents[2]


def texts(game) -> list[str]:
    return [json.dumps(game.view(seat)) for seat in [None, *range(game.players)]]


@pytest.mark.parametrize(
    "players, options",
    [(2, {}), (2, {"letters": 20, "handicap": 2}), (3, {}), (4, {"letters": 20, "first": 1})],
)
def test_every_view_is_the_one_a_replayed_game_shows(players, options):
    """Games with different option sets played side by side (the fixed parts are kept per option
    set): at every step each audience's view is, to the byte, the view of the game replayed anew."""
    games = [codecrack.new_game("alphacode", players=players, seed=seed, **options) for seed in (1, 2)]
    other = codecrack.new_game("alphacode", players=2, seed=9, letters=20)
    rng = random.Random(players)
    for _ in range(70):
        for game in [g for g in games if not g.over]:
            seat = rng.choice(sorted(game.to_move))
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            other.view(None)
            assert texts(game) == texts(codecrack.replay(game.record()))


def test_a_drawn_duels_views_share_the_frozen_parts_and_changing_them_changes_nothing():
    game = duel(CODE_A, CODE_B, first=0)
    game.apply(0, ask("filled", "NB"))
    game.apply(1, ask("count", "OB"))
    game.apply(0, declare(CODE_B))  # right, by the first player: seat 1 has a final chance
    game.apply(1, declare(CODE_A))  # right too: a draw, and a new round
    assert game.round == 2 and len(game.past_rounds) == 1
    game.apply(0, {"type": "random_code"})
    game.apply(1, {"type": "random_code"})
    game.apply(1, ask("filled", "NB"))  # the second round's first player
    first, second = game.view(0), game.view(1)
    assert first["options"] is second["options"] and first["sheet"] is second["sheet"]
    assert first["glyphs"] is second["glyphs"] and first["past_rounds"][0] is second["past_rounds"][0]
    assert first["questions"][0] is second["questions"][0] is game.history[-1]
    asked = game.view(0)["legal_actions"]
    assert all(isinstance(question, FrozenDict) for question in asked)
    assert asked[0] is game.view(0)["legal_actions"][0]

    before, record = texts(game), json.dumps(game.record())
    vandalize(first)
    vandalize(game.apply(0, ask("filled", "NB")))
    assert texts(codecrack.replay(game.record())) == texts(game)
    assert (
        json.dumps(second) == before[2]
        and json.loads(json.dumps(game.record()))["actions"][:-1] == (json.loads(record)["actions"])
    )


def test_a_step_returns_the_frozen_events_its_history_keeps_and_a_copy_shares_the_sheet():
    """``apply`` returns the history's own frozen events (no copy of them per step, as Coda and The
    Coding); a game's copy (the server's twin, a pickle) holds the one shared sheet of its size and
    none of the parts its views keep; and each round's code is shown, not a cached earlier one."""
    game = duel(CODE_A, CODE_B, first=0)
    seen = []
    for seat, action in [
        (0, ask("filled", "NB")),
        (1, ask("count", "OB")),
        (0, declare(CODE_B)),
        (1, declare(CODE_A)),  # a draw: a new round, and new codes
        (0, {"type": "random_code"}),
        (1, {"type": "random_code"}),
    ]:
        events = game.apply(seat, action)
        assert events and all(isinstance(event, FrozenDict) for event in events)
        assert all(mine is kept for mine, kept in zip(events, game.history[-len(events) :], strict=True))
        seen.append(texts(game))
        assert seen[-1] == texts(codecrack.replay(game.record()))
    assert seen[-1] != seen[1]  # the second round's codes
    copy = detached(game)
    assert copy.sheet is game.sheet and copy.view_parts == {} and game.view_parts
    assert texts(copy) == texts(game)


SHARED_KEYS_CHECK = """
import sys
from codecrack.core.detached import detached
from tests.alphacode.helpers import CODE_A, CODE_B, ask, duel
game = duel(CODE_A, CODE_B, first=0)
game.apply(0, ask("filled", "NB"))
for made in (game, detached(game)):
    assert sys.getsizeof(vars(made)) < sys.getsizeof(dict(vars(made))), len(vars(made))
"""


def test_a_games_attributes_share_their_names_with_every_other_games():
    """A game's instance dict shares its keys with the class's (CPython 3.11 does so for up to 30
    names, at 30 a dict of its own: 1.3 KB more for each live game and its twin), also in a copy.
    In a fresh interpreter: the class's shared names are the process's, and another test's game
    given a name of its own (``game.x = ...``) uses one of the 30."""
    done = subprocess.run([sys.executable, "-c", SHARED_KEYS_CHECK], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

"""One action-shape check for every game (issue 26 section 3, ``codecrack.core.shape.check_keys``):
a legal action with a key added, or with one of its keys left out, is refused as a
:class:`MalformedAction` (a shape error, told apart from the rules' :class:`IllegalAction`s), and
the game is unchanged."""

from __future__ import annotations

import random

import pytest

import codecrack
from codecrack.core.errors import MalformedAction

CONFIGS = [
    ("coda", 2, {}),
    ("coda", 3, {"dashes": True}),
    ("coding", 3, {}),
    ("coding", 3, {"mode": "speed"}),
    ("coding", 2, {"mode": "one-shot"}),
    ("alphacode", 2, {}),
    ("alphacode", 3, {}),
]


def misshapen(action: dict) -> list[dict]:
    """The action with a key it does not take, and without each of its keys but ``type``."""
    return [{**action, "extra": 1}] + [{k: v for k, v in action.items() if k != key} for key in action if key != "type"]


@pytest.mark.parametrize("name, players, options", CONFIGS, ids=[f"{n}-{p}-{o}" for n, p, o in CONFIGS])
def test_a_misshapen_action_is_a_shape_error_and_changes_nothing(name, players, options):
    game = codecrack.new_game(name, players=players, seed=5, **options)
    rng = random.Random(5)
    kinds = set()
    while not game.over:
        seat = min(game.awaited or game.to_move)
        legal = game.legal_actions(seat)
        for action in {a["type"]: a for a in legal}.values():  # one of each kind at each step
            before = game.view(seat)
            for wrong in misshapen(action):
                with pytest.raises(MalformedAction):
                    game.apply(seat, wrong)
            assert game.view(seat) == before
            kinds.add(action["type"])
        game.apply(seat, rng.choice(legal))
    assert len(kinds) > 2

"""Views share the game's frozen parts (its history's events) instead of copying them: changing
anything in a returned view, or in the events ``apply`` returned, must change neither the game
nor any other view, whether already handed out or made later."""

import json
import random

import pytest

import codecrack
from codecrack.core.frozen import FrozenDict, FrozenList, frozen

GAMES = [("coda", {}), ("coda", {"dashes": True, "rounds": 3}), ("coding", {}), ("alphacode", {})]


def vandalize(data) -> None:
    """Try to change every dict and list in ``data``, deepest first; frozen ones refuse."""
    children = list(data.values()) if isinstance(data, dict) else data if isinstance(data, list) else []
    for child in children:
        vandalize(child)
    try:
        if isinstance(data, dict):
            for key in list(data):
                data[key] = "vandal"
            data["vandal"] = 1
        elif isinstance(data, list):
            data.append("vandal")
            data[0] = "vandal"
    except TypeError:
        assert isinstance(data, (FrozenDict, FrozenList))


def texts(game) -> list[str]:
    return [json.dumps(game.view(seat), sort_keys=True) for seat in [None, *range(game.players)]]


@pytest.mark.parametrize("name, options", GAMES)
def test_changing_a_view_or_the_applied_events_changes_nothing_else(name, options):
    game, rng = codecrack.new_game(name, players=2, seed=5, **options), random.Random(5)
    for _ in range(60):
        if game.over:
            break
        seat = rng.choice(sorted(game.to_move))
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        before, record = texts(game), json.dumps(game.record())
        held = [game.view(seat) for seat in [None, *range(game.players)]]
        vandalize(events)
        vandalize(held[1])
        assert texts(game) == before and json.dumps(game.record()) == record
        assert [json.dumps(view, sort_keys=True) for view in held[:1] + held[2:]] == before[:1] + before[2:]


def test_frozen_data_equals_plain_data_and_copies_to_plain_data():
    event = frozen({"type": "deal", "colors": ["black"], "pair": (1, [2])})
    assert event == {"type": "deal", "colors": ["black"], "pair": (1, [2])}
    assert json.loads(json.dumps(event)) == {"type": "deal", "colors": ["black"], "pair": [1, [2]]}
    assert type(event.copy()) is dict and type(dict(event)) is dict and type(list(event["colors"])) is list
    assert frozen(event) is event
    for change in (
        lambda: event.update(a=1),
        lambda: event.pop("type"),
        lambda: event["colors"].sort(),
        lambda: event["pair"][1].append(3),
        lambda: event.__ior__({"a": 1}),
    ):
        with pytest.raises(TypeError):
            change()

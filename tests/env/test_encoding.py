"""Observation encoders: computed from the view alone, in the documented layout."""

import numpy as np
import pytest

import codecrack
from codecrack.core.registry import game_class
from codecrack.env.table import observation_encoder

from .configs import CONFIGS, config_id


def test_coda_rows_encode_colour_face_and_known_values_where_the_layout_says():
    game = codecrack.new_game("coda", players=2, seed=3, draw="deck")
    encoder = observation_encoder("coda", 2, game.options)
    view = game.view(0)
    rows = encoder.layout.part(encoder.encode(view), "rows")
    for index, tile in enumerate(view["rows"][0]):
        expected = np.zeros(rows.shape[-1])
        expected[[0, 1 + ("black", "white").index(tile["color"]), 4, 5 + tile["value"]]] = 1
        assert np.array_equal(rows[0, index], expected)
    other = view["rows"][1][0]
    assert rows[1, 0, 4] == 0 and rows[1, 0, 1 + ("black", "white").index(other["color"])] == 1


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_equal_views_give_equal_vectors_within_the_declared_bounds(config):
    name, players, options = config
    game = codecrack.new_game(name, players=players, seed=1, **options)
    encoder = observation_encoder(name, players, game_class(name).Options(**options))
    for seat in range(players):
        vector = encoder.encode(game.view(seat))
        assert np.array_equal(vector, encoder.encode(codecrack.replay(game.record()).view(seat)))
        assert vector.shape == (encoder.layout.size,) and (0 <= vector).all() and (vector <= encoder.layout.highs()).all()


def test_the_research_doc_lists_every_block_of_each_layout():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text()
    for name in ("coda", "coding", "alphacode"):
        section = doc.split(f"#### {name}, 2 players")[1].split("####")[0]
        encoder = observation_encoder(name, 2, game_class(name).Options())
        assert f"{encoder.layout.size} entries" in section.splitlines()[0]
        for block in encoder.layout.describe():
            assert f"| `{block['name']}` | {tuple(block['shape'])} |" in section

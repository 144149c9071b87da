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
        assert (
            vector.shape == (encoder.layout.size,) and (0 <= vector).all() and (vector <= encoder.layout.highs()).all()
        )


def test_the_research_doc_lists_every_block_of_each_layout():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text()
    for name in ("coda", "coding", "alphacode"):
        section = doc.split(f"#### {name}, 2 players")[1].split("####")[0]
        encoder = observation_encoder(name, 2, game_class(name).Options())
        assert f"{encoder.layout.size} entries" in section.splitlines()[0]
        for block in encoder.layout.describe():
            assert f"| `{block['name']}` | {tuple(block['shape'])} |" in section


@pytest.mark.parametrize("players, options", [(2, {}), (3, {"rounds": 3, "draw": "deck"}), (4, {"dashes": True})])
def test_coda_history_readers_give_the_encoding_from_scratch_and_are_one_per_seat(players, options):
    """The environments pass each seat's own history reader with its views of one game; every
    seat's observation must equal the encoding of its view read from scratch, whatever the order
    in which the seats are observed, and no two seats (nor two games) share a reader."""
    from codecrack.env.pettingzoo import env

    aec = env("coda", players=players, **options)
    encoder, rng, readers = aec.unwrapped.encoder, np.random.default_rng(3), []
    for seed in range(2):
        aec.reset(seed=seed)
        table = aec.unwrapped.table
        for agent in aec.agent_iter():
            for other in rng.permutation(aec.agents):
                seat = aec.unwrapped.seat_of[other]
                pure = encoder.encode(table.game.view(seat, legal_actions=False))
                assert np.array_equal(aec.observe(other)["observation"], pure)
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        game_readers = table._readers[2]
        assert sorted(game_readers) == list(range(players))
        readers += game_readers.values()
    assert len({id(reader) for reader in readers}) == 2 * players  # all alive: ids cannot repeat

"""People read seats from 1 in a review (as the table page's "Seat 1" and the terminal); Coda
tiles from 0 at the terminal (its ``guess SEAT INDEX`` takes that index) and from 1 on the web
page (its rows show no indices and its events say "tile 1" for the leftmost)."""

from __future__ import annotations

import codecrack
from codecrack.agents import make_agent
from codecrack.core.runner import run_game
from codecrack.games.coda.review import guess_text
from codecrack.review import review_record
from codecrack.review.numbering import tiles_counted_from


def test_a_coda_guess_names_the_seat_from_1_and_the_tile_as_the_terminal_does():
    assert guess_text(1, 0, 0, 5) == "black 5 on seat 2's tile 0"


def test_the_web_page_counts_coda_tiles_from_1():
    with tiles_counted_from(1):
        assert guess_text(1, 0, 0, 5) == "black 5 on seat 2's tile 1"
    assert guess_text(1, 0, 0, 5).endswith("tile 0")


def test_the_coding_review_names_seats_from_1():
    game = codecrack.new_game("coding", players=2, seed=3, mode="one-shot")
    run_game(game, {s: make_agent("medium", "coding", seed=s) for s in (0, 1)})
    texts = " ".join(d.did + d.best for d in review_record(game.record(), 0).decisions)
    assert "seat 2" in texts and "seat 1" not in texts

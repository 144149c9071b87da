"""The Coda tutorial: two players, deck draws; a hit and going on, a miss, and stopping."""

from ...core.tutorial import Read, Tutorial, them, you

TUTORIAL = Tutorial(
    game="coda",
    seed=20,
    options={"draw": "deck", "first": 0},
    script=(
        Read("welcome"),
        you({"type": "draw"}, "draw"),
        you({"type": "guess", "target": 1, "index": 0, "color": "black", "value": 0}, "first_guess"),
        you({"type": "guess", "target": 1, "index": 3, "color": "black", "value": 11}, "go_on"),
        you({"type": "place", "index": 0}, "miss"),
        them({"type": "draw"}),
        them({"type": "guess", "target": 0, "index": 1, "color": "black", "value": 1}),
        them({"type": "place", "index": 3}),
        Read("their_turn"),
        you({"type": "draw"}, "draw_again"),
        you({"type": "guess", "target": 1, "index": 4, "color": "black", "value": 10}, "deduce"),
        you({"type": "stop"}, "stop"),
        you({"type": "place", "index": 0}, "hide"),
        Read("done"),
    ),
)

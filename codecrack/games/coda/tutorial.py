"""The Coda tutorial: two players and the default table's classic drawing: the opening split,
a colour chosen for each draw; a hit and going on, a miss, and stopping."""

from ...core.tutorial import Read, Tutorial, them, you

TUTORIAL = Tutorial(
    game="coda",
    seed=19,
    options={"first": 0},
    level=1,
    script=(
        Read("welcome"),
        them({"type": "opening", "black": 2}),  # first: the deal depends on the order (the coach waits)
        you({"type": "opening", "black": 2}, "opening"),
        Read("rows"),
        you({"type": "draw", "color": "white"}, "draw"),
        you({"type": "guess", "target": 1, "index": 0, "color": "black", "value": 0}, "first_guess"),
        you({"type": "guess", "target": 1, "index": 3, "color": "black", "value": 11}, "go_on"),
        you({"type": "place", "index": 1}, "miss"),
        them({"type": "draw", "color": "white"}),
        them({"type": "guess", "target": 0, "index": 0, "color": "black", "value": 3}),
        them({"type": "place", "index": 3}),
        Read("their_turn"),
        you({"type": "draw", "color": "black"}, "draw_again"),
        you({"type": "guess", "target": 1, "index": 4, "color": "black", "value": 10}, "deduce"),
        you({"type": "stop"}, "stop"),
        you({"type": "place", "index": 0}, "hide"),
        Read("done"),
    ),
)

"""The Tiny Guess tutorial: two players; a miss answered "higher", then "lower", then the hit."""

from codecrack.core.tutorial import Read, Tutorial, them, you

TUTORIAL = Tutorial(
    game="tinyguess",
    seed=1,
    options={"first": 0},
    script=(
        Read("welcome"),
        you({"type": "guess", "value": 3}, "first_guess"),
        them({"type": "guess", "value": 4}),
        Read("their_turn"),
        you({"type": "guess", "value": 6}, "narrow"),
        them({"type": "guess", "value": 1}),
        you({"type": "guess", "value": 5}, "hit"),
        Read("done"),
    ),
)

"""The Coding tutorial: two players, counter mode (revised). The learner holds the rulebook's
"F 9 8" and cracks the rulebook's "D 5 7": after the four hacking rounds only D 5 7 is left."""

from ...core.tutorial import Read, Tutorial, them, you

TUTORIAL = Tutorial(
    game="coding",
    seed=107313,
    options={"first": 0},
    level=2,
    script=(
        Read("welcome"),
        you({"type": "order", "x1": 9, "x2": 8}, "order"),
        them({"type": "order", "x1": 5, "x2": 7}),
        you({"type": "take", "card": "A-B"}, "take"),
        you({"type": "give", "card": 14, "to": 1}, "give"),
        Read("green_red"),
        them({"type": "take", "card": "E-F"}),
        them({"type": "give", "card": 6, "to": 0}),
        them({"type": "take", "card": "00-19"}),
        them({"type": "give", "card": 13, "to": 0}),
        Read("your_cards"),
        you({"type": "take", "card": "C-D"}, "take_more"),
        you({"type": "give", "card": 0, "to": 1}, "give_more"),
        you({"type": "take", "card": "20-39"}, "take_more"),
        you({"type": "give", "card": 3, "to": 1}, "give_more"),
        them({"type": "take", "card": "60-79"}),
        them({"type": "give", "card": 18, "to": 0}),
        them({"type": "take", "card": "80-99"}),
        them({"type": "give", "card": 16, "to": 0}),
        you({"type": "take", "card": "40-59"}, "take_more"),
        you({"type": "give", "card": 5, "to": 1}, "give_more"),
        Read("sheet"),
        you({"type": "decode", "target": 1, "code": "D57"}, "decode"),
        Read("done"),
    ),
)

"""The Alphabet Code tutorial: a duel. The learner asks the rulebook's zone (O, D), which answers
3, then a square, and four more zones; those six answers leave one code, which the learner declares."""

from ...core.tutorial import Read, Tutorial, them, you

CODE = [
    {"letter": "c", "row": "P", "column": "A"},
    {"letter": "a", "row": "N", "column": "C"},
    {"letter": "i", "row": "P", "column": "I"},
    {"letter": "f", "row": "N", "column": "K"},
    {"letter": "j", "row": "N", "column": "K"},
]


def ask(kind: str, row: str, column: str) -> dict[str, str]:
    return {"type": kind, "row": row, "column": column}


TUTORIAL = Tutorial(
    game="alphacode",
    seed=11,
    options={"first": 0},
    level=3,
    script=(
        Read("welcome"),
        you({"type": "random_code"}, "make_code"),
        them({"type": "code", "letters": CODE}),
        you(ask("count", "O", "D"), "zone"),
        Read("zone_answer"),
        them(ask("count", "O", "B")),
        you(ask("filled", "P", "J"), "square"),
        Read("square_answer"),
        them(ask("count", "O", "D")),
        you(ask("count", "O", "F"), "ask_more"),
        them(ask("count", "O", "F")),
        you(ask("count", "O", "H"), "ask_more"),
        them(ask("count", "O", "H")),
        you(ask("count", "O", "B"), "ask_more"),
        them(ask("count", "O", "J")),
        you(ask("count", "Q", "F"), "ask_more"),
        them(ask("count", "O", "L")),
        Read("settled"),
        you({"type": "declare", "letters": CODE}, "declare"),
        them({"type": "pass"}),
        Read("done"),
    ),
)

"""The Coding's cards: codes, data cards and hack cards, and the text forms used in actions.

A code is one letter A-F and two different digits: ``{"letter": "F", "x1": 9, "x2": 8}`` reads
"F 9 8" and is written ``"F98"`` in actions.

>>> parse_code("f98")
{'letter': 'F', 'x1': 9, 'x2': 8}
>>> code_text({'letter': 'D', 'x1': 5, 'x2': 7})
'D57'
>>> rules_out("20-39", parse_code("F98")), rules_out("E-F", parse_code("F98"))
(True, False)
>>> is_green({"id": 0, "position": "x1", "values": [0, 2, 4, 6, 8]}, parse_code("D57"))
False
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from ...core.errors import IllegalAction, OptionError
from ...i18n import N_

LETTERS = "ABCDEF"
DIGITS = tuple(range(10))
POSITIONS = ("letter", "x1", "x2")
NUMBER_POSITIONS = ("x1", "x2")

Code = dict[str, Any]
HackCard = dict[str, Any]

# Each data card names a range its taker is NOT in: a pair of letters or a pair of tens digits.
DATA_CARDS: dict[str, tuple[str, frozenset[str | int]]] = {
    "A-B": ("letter", frozenset("AB")),
    "C-D": ("letter", frozenset("CD")),
    "E-F": ("letter", frozenset("EF")),
    "00-19": ("x1", frozenset({0, 1})),
    "20-39": ("x1", frozenset({2, 3})),
    "40-59": ("x1", frozenset({4, 5})),
    "60-79": ("x1", frozenset({6, 7})),
    "80-99": ("x1", frozenset({8, 9})),
}
DATA_TYPES = tuple(DATA_CARDS)

_CODE_TEXT = re.compile(r"^([A-F])([0-9])([0-9])$")


def parse_code(text: Any) -> Code:
    """A code from its text form ``"D57"``; raises :class:`IllegalAction` if malformed."""
    match = _CODE_TEXT.match(text.strip().upper()) if isinstance(text, str) else None
    if match is None:
        raise IllegalAction(N_("a code is a letter A-F and two digits, like 'D57', not {text!r}"), text=text)
    letter, x1, x2 = match.group(1), int(match.group(2)), int(match.group(3))
    if x1 == x2:
        raise IllegalAction(N_("the two digits of a code are different cards, so {text!r} cannot be a code"), text=text)
    return {"letter": letter, "x1": x1, "x2": x2}


def code_text(code: Code) -> str:
    return f"{code['letter']}{code['x1']}{code['x2']}"


ALL_CODE_TEXTS = tuple(f"{letter}{a}{b}" for letter in LETTERS for a in DIGITS for b in DIGITS if a != b)


def all_code_texts() -> tuple[str, ...]:
    """Every possible code, in order: 6 letters x 90 ordered digit pairs = 540."""
    return ALL_CODE_TEXTS


def rules_out(data_type: str, code: Code) -> bool:
    """True when data card ``data_type`` truly says that ``code`` is not in its range."""
    position, values = DATA_CARDS[data_type]
    return code[position] not in values


def is_green(card: HackCard, code: Code) -> bool:
    """A hack card goes green side up when the code's value at its position is in its set."""
    return code[card["position"]] in card["values"]


def _check_card(number: int, raw: Any) -> HackCard:
    if not isinstance(raw, dict) or set(raw) != {"position", "values"}:
        raise OptionError(N_("hack card {number}: expected {{'position': ..., 'values': [...]}}"), number=number)
    position, values = raw["position"], raw["values"]
    if position not in POSITIONS:
        raise OptionError(
            N_("hack card {number}: position must be one of {positions}"), number=number, positions=", ".join(POSITIONS)
        )
    allowed = list(LETTERS) if position == "letter" else list(DIGITS)
    if (
        not isinstance(values, list)
        or not values
        or len(set(map(repr, values))) != len(values)
        or any(isinstance(v, bool) or v not in allowed for v in values)
    ):
        raise OptionError(
            N_("hack card {number}: values must be different items of {allowed}"), number=number, allowed=allowed
        )
    return {"id": number, "position": position, "values": sorted(values)}


def load_deck(path: str | None = None) -> list[HackCard]:
    """The hack deck from a JSON file (a list of ``{"position", "values"}``); ``None``: the default.

    Each card gets its index in the file as ``id``.

    >>> deck = load_deck()
    >>> len(deck), deck[4]
    (20, {'id': 4, 'position': 'x1', 'values': [0, 2, 4, 6, 8]})
    """
    try:
        if path is None:
            text = resources.files(__package__).joinpath("hack_deck.json").read_text()
        else:
            text = Path(path).read_text()
        raw = json.loads(text)
    except (OSError, json.JSONDecodeError) as error:
        raise OptionError(N_("cannot read hack deck {path!r}: {error}"), path=path, error=error) from None
    if not isinstance(raw, list) or not raw:
        raise OptionError(N_("hack deck {path!r} must be a non-empty JSON list of cards"), path=path)
    return [_check_card(number, card) for number, card in enumerate(raw)]

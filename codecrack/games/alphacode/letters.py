"""The letter pieces: seven-segment glyphs and where their segments fall on the lattice.

Segments, with rows counted from the glyph's top and columns from its left edge:
``a`` top (0, 1), ``b`` upper right (1, 2), ``c`` lower right (3, 2), ``d`` bottom (4, 1),
``e`` lower left (3, 0), ``f`` upper left (1, 0), ``g`` middle (2, 1).

>>> GLYPHS["i"], glyph_cells("i")
('c', [(3, 2)])
>>> len(LETTER_SETS[10]), len(LETTER_SETS[20])
(10, 20)
>>> distinct_up_to_translation(LETTER_SETS[20])
True
"""

from __future__ import annotations

from functools import cache

SEGMENT_CELLS: dict[str, tuple[int, int]] = {
    "a": (0, 1),
    "b": (1, 2),
    "c": (3, 2),
    "d": (4, 1),
    "e": (3, 0),
    "f": (1, 0),
    "g": (2, 1),
}

BASE_GLYPHS = {  # fixed by the rulings
    "a": "abcdeg",
    "b": "cdefg",
    "c": "deg",
    "d": "bcdeg",
    "e": "abdefg",
    "f": "aefg",
    "g": "abcdfg",
    "h": "cefg",
    "i": "c",
    "j": "bcd",
}

EXTRA_GLYPHS = {  # the "more alphabets" set, drawn the way seven-segment displays usually do
    "m": "abcef",  # a tall arch, the usual seven-segment M
    "n": "ceg",  # lowercase n
    "o": "cdeg",  # lowercase o
    "p": "abefg",  # P
    "r": "eg",  # lowercase r
    "s": "acdfg",  # S (like 5)
    "t": "defg",  # lowercase t
    "u": "cde",  # lowercase u
    "w": "bcdef",  # a tall cup, the usual seven-segment W (u is the short cup)
    "y": "bcdfg",  # lowercase y (like 4 with a tail)
}

GLYPHS = {**BASE_GLYPHS, **EXTRA_GLYPHS}
LETTER_SETS = {10: "abcdefghij", 20: "abcdefghij" + "".join(EXTRA_GLYPHS)}


def glyph_cells(letter: str) -> list[tuple[int, int]]:
    """The (row, column) cells a letter draws on, relative to its glyph's top-left corner."""
    return sorted(SEGMENT_CELLS[segment] for segment in GLYPHS[letter])


@cache
def frame_offset(letter: str) -> tuple[int, int]:
    """How far (rows, columns; both even) the drawn piece starts below and right of its glyph box.

    >>> frame_offset("a"), frame_offset("c"), frame_offset("i")
    ((0, 0), (2, 0), (2, 2))
    """
    cells = glyph_cells(letter)
    return min(r for r, _ in cells) // 2 * 2, min(c for _, c in cells) // 2 * 2


@cache
def shape(letter: str) -> frozenset[tuple[int, int]]:
    """The piece's cells relative to its top-left corner point: equal shapes are translations.

    >>> sorted(shape("i"))
    [(1, 0)]
    """
    top, left = frame_offset(letter)
    return frozenset((r - top, c - left) for r, c in glyph_cells(letter))


def distinct_up_to_translation(letters: str) -> bool:
    """True when no two of ``letters`` draw the same pattern, wherever they are placed."""
    return len({shape(letter) for letter in letters}) == len(letters)


def check_letters(letters: str) -> str:
    """Return ``letters`` if they are distinct known glyphs, else raise ``ValueError``."""
    unknown = sorted(set(letters) - set(GLYPHS))
    if unknown or len(set(letters)) != len(letters) or len(letters) < 5:
        raise ValueError(f"letters must be 5 or more different letters from {''.join(GLYPHS)}, not {letters!r}")
    if not distinct_up_to_translation(letters):
        raise ValueError(f"two of the letters {letters!r} draw the same pattern")
    return letters

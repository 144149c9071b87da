"""The answer sheet: a lattice of zones, squares and corner points with lettered coordinates.

Cell (row r, column c), counting from 0, is a *zone* when r and c are both odd, a *square* when
exactly one of them is odd, and a *corner point* otherwise. Columns are labelled A, B, C, ...
and rows N, O, P, ...; a coordinate is written row first, as in the rulebook's "zone (O, D)".

>>> sheet = Sheet()
>>> len(sheet.squares), len(sheet.zones)
(32, 12)
>>> sheet.kind(1, 3), sheet.kind(3, 8), sheet.kind(0, 0)
('zone', 'square', 'corner')
>>> sheet.label(1, 3)
'(O, D)'
>>> sheet.cell("Q", "I")
(3, 8)
>>> [sheet.label(*cell) for cell in sheet.sides(1, 3)]
['(N, D)', '(P, D)', '(O, C)', '(O, E)']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ...core.errors import IllegalAction
from ...core.frozen import FrozenDict, frozen
from ...i18n import N_

COLUMN_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXY"
ROW_LABELS = "NOPQRSTUVWXYZ"
MIN_COLUMNS, MIN_ROWS = 13, 5

Cell = tuple[int, int]


def check_size(columns: int, rows: int) -> None:
    """Raise ``ValueError`` unless ``columns`` x ``rows`` is an allowed sheet size."""
    for name, value, low, high in (
        ("columns", columns, MIN_COLUMNS, len(COLUMN_LABELS)),
        ("rows", rows, MIN_ROWS, len(ROW_LABELS)),
    ):
        if not isinstance(value, int) or value % 2 == 0 or not low <= value <= high:
            raise ValueError(f"{name} must be an odd number from {low} to {high}, not {value!r}")


@dataclass(frozen=True)
class Sheet:
    """The lattice of one sheet size; squares are numbered in reading order (bit ``i`` = square ``i``)."""

    columns: int = 13
    rows: int = 5
    squares: tuple[Cell, ...] = field(init=False, repr=False, compare=False)
    zones: tuple[Cell, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_size(self.columns, self.rows)
        squares, zones = _lattice(self.columns, self.rows)
        object.__setattr__(self, "squares", squares)
        object.__setattr__(self, "zones", zones)

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        """A copy (a pickled game's, a twin's) is the shared sheet of its size: :func:`sheet_of`."""
        return sheet_of, (self.columns, self.rows)

    # -- geometry ----------------------------------------------------------------
    @property
    def column_labels(self) -> str:
        return COLUMN_LABELS[: self.columns]

    @property
    def row_labels(self) -> str:
        return ROW_LABELS[: self.rows]

    def kind(self, row: int, column: int) -> str:
        """``"zone"``, ``"square"`` or ``"corner"`` (a corner point)."""
        return _kind(row, column)

    def on_sheet(self, row: int, column: int) -> bool:
        return 0 <= row < self.rows and 0 <= column < self.columns

    def square_index(self, row: int, column: int) -> int:
        """The bit number of square (row, column)."""
        return _square_numbers(self.columns, self.rows)[(row, column)]

    def sides(self, row: int, column: int) -> list[Cell]:
        """The 4 squares around a zone: above, below, left, right."""
        return [(row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)]

    def zone_mask(self, row: int, column: int) -> int:
        """Bitmask of the 4 squares around zone (row, column)."""
        found = _zone_masks(self.columns, self.rows).get((row, column))
        if found is not None:
            return found
        return sum(1 << self.square_index(*cell) for cell in self.sides(row, column))

    def label(self, row: int, column: int) -> str:
        return f"({self.row_labels[row]}, {self.column_labels[column]})"

    # -- coordinates -------------------------------------------------------------
    def cell(self, row: object, column: object) -> Cell:
        """Indices of the point (row, column) given by labels; off the sheet is an error. Two labels
        as the game writes them (one upper-case letter each: every stored question) are one lookup."""
        if type(row) is str and type(column) is str:
            found = _cells(self.columns, self.rows).get(row + column) if len(row) == 1 == len(column) else None
            if found is not None:
                return found
        return (
            self._index(self.row_labels, row, N_("row {text!r} is off the sheet (rows {first}-{last})")),
            self._index(self.column_labels, column, N_("column {text!r} is off the sheet (columns {first}-{last})")),
        )

    @staticmethod
    def _index(labels: str, text: object, off_the_sheet: str) -> int:
        if not isinstance(text, str) or len(text) != 1 or text.upper() not in labels:
            raise IllegalAction(off_the_sheet, text=text, first=labels[0], last=labels[-1])
        return labels.index(text.upper())

    def describe(self) -> dict[str, Any]:
        """The sheet as it appears in views."""
        return {
            "columns": self.columns,
            "rows": self.rows,
            "column_labels": self.column_labels,
            "row_labels": self.row_labels,
        }


@cache
def sheet_of(columns: int = MIN_COLUMNS, rows: int = MIN_ROWS) -> Sheet:
    """The one sheet of a size that every game of that size shares: the caches keyed by a sheet
    (its cells, its questions, each code entry's JSON) then find it by identity, with no
    comparison of two equal sheets (a game's step and views look them up many times)."""
    return Sheet(columns, rows)


def _kind(row: int, column: int) -> str:
    return ("corner", "square", "zone")[(row % 2) + (column % 2)]


@cache
def _lattice(columns: int, rows: int) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    """The squares and the zones of a sheet size, made once and shared by every sheet of that size
    (each game holds a sheet for its table's life: 2.4 KB of cells apiece, docs/benchmarks.md,
    "Idle sockets")."""
    cells = [(r, c) for r in range(rows) for c in range(columns)]
    return tuple(cell for cell in cells if _kind(*cell) == "square"), tuple(
        cell for cell in cells if _kind(*cell) == "zone"
    )


# The lookups of a sheet size, keyed by its two numbers (hashed in C, where a Sheet's hash is
# a Python call): a game's every step and view use them.
@cache
def _cells(columns: int, rows: int) -> dict[str, Cell]:
    """Every point's cell, keyed by its row label and column label written together (``"QI"``)."""
    return {
        row_label + column_label: (row, column)
        for row, row_label in enumerate(ROW_LABELS[:rows])
        for column, column_label in enumerate(COLUMN_LABELS[:columns])
    }


@cache
def _square_numbers(columns: int, rows: int) -> dict[Cell, int]:
    return {cell: index for index, cell in enumerate(_lattice(columns, rows)[0])}


@cache
def _zone_masks(columns: int, rows: int) -> dict[Cell, int]:
    """Each zone's bitmask of its 4 squares."""
    numbers = _square_numbers(columns, rows)
    return {
        (r, c): sum(1 << numbers[side] for side in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
        for r, c in _lattice(columns, rows)[1]
    }


def answer(sheet: Sheet, question: dict[str, Any], filled: int) -> int | bool:
    """Answer a question about a code whose filled squares are the bitmask ``filled``.

    ``{"type": "count", "row", "column"}`` names a zone and returns 0-4;
    ``{"type": "filled", "row", "column"}`` names a square and returns True or False.
    """
    return answer_at(sheet, question["type"], *question_cell(sheet, question), filled)


def answer_at(sheet: Sheet, kind: str, row: int, column: int, filled: int) -> int | bool:
    """:func:`answer` for a question already checked (:func:`question_cell`)."""
    if kind == "count":
        return (filled & sheet.zone_mask(row, column)).bit_count()
    return bool(filled >> sheet.square_index(row, column) & 1)


def question_cell(sheet: Sheet, question: dict[str, Any]) -> Cell:
    """Check that a question names a point of the right kind; return its cell. Errors name the problem."""
    kind = question.get("type")
    if kind not in ("count", "filled"):
        raise IllegalAction(N_("a question is 'count' (a zone) or 'filled' (a square), not {kind!r}"), kind=kind)
    row, column = sheet.cell(question.get("row"), question.get("column"))
    point = sheet.kind(row, column)
    if point == ("zone" if kind == "count" else "square"):
        return row, column
    where = sheet.label(row, column)
    if point == "corner":
        raise IllegalAction(N_("{where} is a corner point: it can be neither filled nor asked about"), where=where)
    if kind == "count":
        raise IllegalAction(N_("{where} is a square, not a zone: ask 'filled' about it"), where=where)
    raise IllegalAction(N_("{where} is a zone, not a square: ask 'count' about it"), where=where)


def all_questions(sheet: Sheet) -> list[dict[str, Any]]:
    """Every question one may ask: ``count`` for each zone, ``filled`` for each square."""

    def named(kind: str, row: int, column: int) -> dict[str, Any]:
        return {"type": kind, "row": sheet.row_labels[row], "column": sheet.column_labels[column]}

    return [named("count", *zone) for zone in sheet.zones] + [named("filled", *sq) for sq in sheet.squares]


QuestionKey = tuple[str, str, str]


@cache
def shared_questions(sheet: Sheet) -> tuple[tuple[QuestionKey, FrozenDict], ...]:
    """:func:`all_questions` in the same order, each with its key (its kind and labels), made once
    per sheet and frozen: a seat's legal actions are a new list of these shared questions (as Coda's
    guesses are: docs/engine.md, "Views share what never changes")."""
    return tuple(((q["type"], q["row"], q["column"]), frozen(q)) for q in all_questions(sheet))


@cache
def question_index(sheet: Sheet) -> dict[QuestionKey, tuple[int, FrozenDict]]:
    """:func:`shared_questions` by key: the question's number (its place in that order, a game's bit
    for it) and the shared question a game's answer holds."""
    return {key: (number, question) for number, (key, question) in enumerate(shared_questions(sheet))}


def settled_by(sheet: Sheet, kind: str, row: int, column: int, result: int | bool) -> tuple[int, int]:
    """The squares one answer settles, as bitmasks (filled, empty): a ``filled`` answer settles its
    square, a zone count of 0 or 4 all four sides."""
    if kind == "filled":
        bit = 1 << sheet.square_index(row, column)
        return (bit, 0) if result else (0, bit)
    if result in (0, 4):
        sides = sheet.zone_mask(row, column)
        return (sides, 0) if result == 4 else (0, sides)
    return 0, 0


def settled_masks(sheet: Sheet, entries: list[dict[str, Any]]) -> tuple[int, int]:
    """The squares that answered questions settle, as bitmasks (filled, empty) (:func:`settled_by`).
    ``entries`` are ``{"question", "answer"}``."""
    filled = empty = 0
    for entry in entries:
        question = entry["question"]
        cell = sheet.cell(question["row"], question["column"])
        more_filled, more_empty = settled_by(sheet, question["type"], *cell, entry["answer"])
        filled, empty = filled | more_filled, empty | more_empty
    return filled, empty


def settled_squares(sheet: Sheet, entries: list[dict[str, Any]]) -> tuple[set[Cell], set[Cell]]:
    """:func:`settled_masks` as the squares' cells (filled, empty)."""
    filled, empty = settled_masks(sheet, entries)
    return (
        {cell for index, cell in enumerate(sheet.squares) if filled >> index & 1},
        {cell for index, cell in enumerate(sheet.squares) if empty >> index & 1},
    )

"""Codes: five different letters placed on the sheet, their validation, random drawing and enumeration.

A letter piece is placed by the corner point at the top left of its drawing, and moves only by
whole zones (even lattice steps). A code is written as a list of
``{"letter": "a", "row": "N", "column": "A"}`` entries: letter ``a`` drawn in zone column B.

>>> sheet = Sheet()
>>> code = parse_code(entries_from_text("a@B h@F f@J i@PK j@L", sheet), sheet, "abcdefghij")
>>> check_code(code, sheet, "abcdefghij")
>>> describe_code(code, sheet)
'a@NA h@NE f@NI i@PK j@NK'
>>> check_code(parse_code(entries_from_text("a@B b@D c@F d@H e@J", sheet), sheet, "abcdefghij"), sheet, "abcdefghij")
Traceback (most recent call last):
...
codecrack.core.errors.IllegalAction: letters a and b touch: both fill square (O, C)
>>> len(legal_codes())
44099
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from operator import itemgetter
from typing import Any

import numpy as np

from ...core.errors import IllegalAction
from ...core.frozen import FrozenDict, FrozenList, frozen
from ...core.lru import WORK_CACHE
from ...i18n import N_
from .letters import GLYPHS, LETTER_SETS, check_letters, frame_offset, shape
from .sheet import Sheet, question_cell
from .words import spells_word, words_for

CODE_LENGTH = 5


@dataclass(frozen=True, order=True)
class Piece:
    """One letter with its top-left corner point at (``row``, ``column``), and its filled squares."""

    row: int
    column: int
    letter: str
    mask: int

    @property
    def cells(self) -> list[tuple[int, int]]:
        return sorted((self.row + r, self.column + c) for r, c in shape(self.letter))

    @property
    def zone_column(self) -> int:
        """The zone column of the letter's glyph box (-1 for an ``i`` slid onto column A)."""
        return (self.column - frame_offset(self.letter)[1]) // 2


Code = tuple[Piece, ...]


@cache
def pieces(sheet: Sheet, letters: str) -> dict[tuple[str, int, int], Piece]:
    """Every placement of every letter on ``sheet``, keyed by (letter, row, column) of its corner."""
    table = {}
    for letter in letters:
        cells = shape(letter)
        for row in range(0, sheet.rows, 2):
            for column in range(0, sheet.columns, 2):
                placed = [(row + r, column + c) for r, c in cells]
                if all(sheet.on_sheet(*cell) for cell in placed):
                    mask = sum(1 << sheet.square_index(*cell) for cell in placed)
                    table[letter, row, column] = Piece(row, column, letter, mask)
    return table


# -- reading and writing codes -----------------------------------------------------------
def in_zone_column(letter: str, zone_column: str, sheet: Sheet) -> dict[str, str]:
    """The entry for ``letter`` drawn in zone column ``zone_column`` at the top of the sheet.

    >>> in_zone_column("a", "B", Sheet()), in_zone_column("i", "B", Sheet())
    ({'letter': 'a', 'row': 'N', 'column': 'A'}, {'letter': 'i', 'row': 'P', 'column': 'C'})
    """
    if letter not in GLYPHS:
        raise IllegalAction(N_("there is no letter piece {letter!r}"), letter=letter)
    _, column = sheet.cell(sheet.row_labels[1], zone_column)
    if column % 2 == 0:
        raise IllegalAction(
            N_("column {column} is not a zone column ({columns})"),
            column=zone_column,
            columns=", ".join(sheet.column_labels[1::2]),
        )
    top, left = frame_offset(letter)
    return {"letter": letter, "row": sheet.row_labels[top], "column": sheet.column_labels[column - 1 + left]}


def entries_from_text(text: str, sheet: Sheet) -> list[dict[str, str]]:
    """Code entries from text such as ``a@NA c@PE`` (letter @ row and column of its top-left corner
    point) or ``a@B`` (the letter in the box of zone column B).

    >>> entries_from_text("a@B i@pc", Sheet())
    [{'letter': 'a', 'row': 'N', 'column': 'A'}, {'letter': 'i', 'row': 'P', 'column': 'C'}]
    """
    entries = []
    for word in text.split():
        letter, at, where = word.partition("@")
        if not at or len(letter) != 1 or len(where) not in (1, 2):
            raise IllegalAction(
                N_(
                    "write each letter as letter@RC (row and column of its top-left corner, "
                    "like a@NA) or letter@C (its zone column, like a@B), not {word!r}"
                ),
                word=word,
            )
        letter, where = letter.lower(), where.upper()
        if len(where) == 1:
            entries.append(in_zone_column(letter, where, sheet))
        else:
            entries.append({"letter": letter, "row": where[0], "column": where[1]})
    return entries


def parse_code(entries: Any, sheet: Sheet, letters: str) -> Code:
    """Turn the JSON form of a code into pieces. Checks form, letters, positions and count."""
    if not isinstance(entries, list):
        raise IllegalAction(N_('a code is a list of {"letter": ..., "row": ..., "column": ...} entries'))
    code = [parse_piece(entry, sheet, letters) for entry in entries]
    seen = [piece.letter for piece in code]
    repeated = sorted({letter for letter in seen if seen.count(letter) > 1})
    if repeated:
        raise IllegalAction(N_("letter {letter} is used twice: each letter may be used only once"), letter=repeated[0])
    if len(code) != CODE_LENGTH:
        raise IllegalAction(N_("a code has exactly {count} letters, not {given}"), count=CODE_LENGTH, given=len(code))
    return tuple(sorted(code, key=reading_key))


def parse_piece(entry: Any, sheet: Sheet, letters: str) -> Piece:
    if not isinstance(entry, dict) or set(entry) != {"letter", "row", "column"}:
        raise IllegalAction(
            N_('each letter is {{"letter": "a", "row": "N", "column": "A"}}, not {entry!r}'), entry=entry
        )
    letter = entry["letter"]
    if not isinstance(letter, str) or letter not in letters:
        raise IllegalAction(N_("letter {letter!r} is not in this game's set {letters}"), letter=letter, letters=letters)
    row, column = sheet.cell(entry["row"], entry["column"])
    if sheet.kind(row, column) != "corner":
        zone = sheet.kind(row, column) == "zone"
        raise IllegalAction(
            N_("{where} is a zone: a letter is placed by the corner point at its top left, such as (N, A)")
            if zone
            else N_("{where} is a square: a letter is placed by the corner point at its top left, such as (N, A)"),
            where=sheet.label(row, column),
        )
    piece = pieces(sheet, letters).get((letter, row, column))
    if piece is None:
        raise IllegalAction(
            N_("letter {letter} at {where} would hang off the sheet"), letter=letter, where=sheet.label(row, column)
        )
    return piece


def reading_key(piece: Piece) -> tuple[int, int, int]:
    """Writing order: zone column left to right, then top to bottom (then left to right) within it."""
    return (piece.zone_column, *piece.cells[0])


def reading(code: Code) -> str:
    """The code's letters in writing order.

    >>> sheet = Sheet()
    >>> reading(parse_code(entries_from_text("e@NG h@NC c@PA f@NK i@NE", sheet), sheet, "abcdefghij"))
    'chief'
    """
    return "".join(piece.letter for piece in sorted(code, key=reading_key))


def code_json(code: Code, sheet: Sheet) -> list[dict[str, str]]:
    """The JSON form of a code, in writing order."""
    return [
        {"letter": piece.letter, "row": sheet.row_labels[piece.row], "column": sheet.column_labels[piece.column]}
        for piece in sorted(code, key=reading_key)
    ]


def shared_code_json(code: Code, sheet: Sheet) -> FrozenList:
    """:func:`code_json` as a new frozen list of shared entries, one made once per piece and sheet
    (a code's views share them)."""
    return FrozenList(entry for _, entry in sorted((_shared_entry(piece, sheet) for piece in code), key=itemgetter(0)))


@cache
def _shared_entry(piece: Piece, sheet: Sheet) -> tuple[tuple[int, int, int], FrozenDict]:
    """The piece's writing-order key (:func:`reading_key`) and its frozen JSON entry."""
    entry = {"letter": piece.letter, "row": sheet.row_labels[piece.row], "column": sheet.column_labels[piece.column]}
    return reading_key(piece), frozen(entry)


def code_mask(code: Iterable[Piece]) -> int:
    """Bitmask of the squares a code fills."""
    mask = 0
    for piece in code:
        mask |= piece.mask
    return mask


# -- legality ----------------------------------------------------------------------------
def check_code(code: Code, sheet: Sheet, letters: str, real_words: bool = False) -> None:
    """Raise :class:`IllegalAction` naming why ``code`` is not a legal code, else return ``None``."""
    for i, first in enumerate(code):
        for second in code[i + 1 :]:
            shared = first.mask & second.mask
            if shared:
                square = sheet.squares[(shared & -shared).bit_length() - 1]
                raise IllegalAction(
                    N_("letters {first} and {second} touch: both fill square {where}"),
                    first=first.letter,
                    second=second.letter,
                    where=sheet.label(*square),
                )
    others = [other for other in codes_filling(code_mask(code), sheet, letters, limit=2) if set(other) != set(code)]
    if others:
        raise IllegalAction(
            N_("ambiguous: {code} fills exactly the same squares"), code=describe_code(others[0], sheet)
        )
    if real_words and not spells_word(reading(code)):
        raise IllegalAction(N_("{word!r} (the letters in writing order) is not an English word"), word=reading(code))


def describe_code(code: Code, sheet: Sheet) -> str:
    """``a@NA h@NE ...``: the short text form used in messages and the terminal."""
    return " ".join(text_position(entry) for entry in code_json(code, sheet))


def text_position(entry: dict[str, str]) -> str:
    """``a@NA``: the letter, then the row and column of its top-left corner point."""
    return f"{entry['letter']}@{entry['row']}{entry['column']}"


def codes_filling(mask: int, sheet: Sheet, letters: str, limit: int) -> list[Code]:
    """Up to ``limit`` sets of 5 different, non-touching letters that fill exactly ``mask``."""
    by_lowest_square = _pieces_by_lowest_square(sheet, letters)
    found: list[Code] = []

    def cover(remaining: int, used: tuple[Piece, ...]) -> None:
        if len(found) >= limit:
            return
        if remaining == 0 or len(used) == CODE_LENGTH:
            if remaining == 0 and len(used) == CODE_LENGTH:
                found.append(used)
            return
        lowest = (remaining & -remaining).bit_length() - 1
        for piece in by_lowest_square.get(lowest, ()):
            if piece.mask & remaining == piece.mask and all(piece.letter != p.letter for p in used):
                cover(remaining & ~piece.mask, used + (piece,))

    cover(mask, ())
    return found


@cache
def settled_code(filled: int, empty: int, sheet: Sheet, letters: str) -> list[dict[str, str]] | None:
    """The code that settled squares (bitmasks, filled and empty) show, once they settle every
    square of ``sheet``; else ``None``."""
    if filled | empty != (1 << len(sheet.squares)) - 1:
        return None
    found = codes_filling(filled, sheet, letters, limit=1)
    return code_json(found[0], sheet) if found else None


def _pieces_by_lowest_square(sheet: Sheet, letters: str) -> dict[int, list[Piece]]:
    table: dict[int, list[Piece]] = {}
    for piece in pieces(sheet, letters).values():
        table.setdefault((piece.mask & -piece.mask).bit_length() - 1, []).append(piece)
    return table


# -- drawing a code at random ------------------------------------------------------------
DENSE_SQUARES = 32  # sheets this small draw codes from the table of every legal code


def random_code(
    rng: random.Random, sheet: Sheet, letters: str, real_words: bool = False, pick: Callable[[int], int] | None = None
) -> Code:
    """A legal code drawn with ``rng``; every legal code is equally likely.

    On sheets of up to ``DENSE_SQUARES`` squares the code is one explicit choice among the rows of
    :func:`legal_codes`, made by ``pick(n)`` (default ``rng.randrange``): the game's chance event.
    On larger sheets, five placements are drawn from all placements of all letters, and the draw
    is thrown away when a letter repeats, letters touch or the squares could be read another way.
    Under the real-words rule see :func:`_random_word_code`.
    """
    pick = pick or rng.randrange
    if len(sheet.squares) <= DENSE_SQUARES:
        table = legal_codes(letters, sheet.columns, sheet.rows, real_words)
        if not len(table):
            raise IllegalAction(N_("no legal code spells an English word with the letters {letters}"), letters=letters)
        return table.code(pick(len(table)))
    if real_words:
        return _random_word_code(rng, sheet, letters)
    everything = list(pieces(sheet, letters).values())
    while True:
        code = tuple(rng.sample(everything, CODE_LENGTH))
        if len({piece.letter for piece in code}) == CODE_LENGTH and _disjoint(code) and is_legal(code, sheet, letters):
            return tuple(sorted(code, key=reading_key))


WORD_CODE_TRIES = 200_000


def _random_word_code(rng: random.Random, sheet: Sheet, letters: str) -> Code:
    """A legal code that spells a word, on a sheet too large for :func:`legal_codes`: a random word
    gets random placements until they are legal and read in the word's order."""
    words = sorted(words_for(letters))
    by_letter = _pieces_by_letter(sheet, letters)
    for _ in range(WORD_CODE_TRIES if words else 0):
        word = rng.choice(words)
        code = tuple(sorted((rng.choice(by_letter[letter]) for letter in word), key=reading_key))
        if _disjoint(code) and reading(code) == word and is_legal(code, sheet, letters, real_words=True):
            return code
    raise IllegalAction(N_("could not place an English word with the letters {letters} on this sheet"), letters=letters)


@cache
def _pieces_by_letter(sheet: Sheet, letters: str) -> dict[str, list[Piece]]:
    table: dict[str, list[Piece]] = {}
    for piece in pieces(sheet, letters).values():
        table.setdefault(piece.letter, []).append(piece)
    return table


def _disjoint(code: Code) -> bool:
    return sum(piece.mask.bit_count() for piece in code) == code_mask(code).bit_count()


def is_legal(code: Code, sheet: Sheet, letters: str, real_words: bool = False) -> bool:
    try:
        check_code(code, sheet, letters, real_words)
    except IllegalAction:
        return False
    return True


# -- answers as popcounts over square bitmasks -------------------------------------------
def popcount(values: np.ndarray) -> np.ndarray:
    """Set bits of each unsigned 64-bit value, as ``uint8``.

    >>> popcount(np.array([0, 7, 2**63], dtype=np.uint64)).tolist()
    [0, 3, 1]
    """
    counts: np.ndarray
    if hasattr(np, "bitwise_count"):
        counts = np.bitwise_count(values).astype(np.uint8)
    else:
        as_bytes = values.astype(np.uint64).view(np.uint8).reshape(*values.shape, 8)
        counts = _BYTE_BITS[as_bytes].sum(axis=-1, dtype=np.uint8)
    return counts


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def split_words(mask: int, n_words: int) -> np.ndarray:
    """A square bitmask as ``n_words`` 64-bit words (square ``s`` is bit ``s % 64`` of word ``s // 64``).

    >>> split_words(2**64 + 5, 2).tolist()
    [5, 1]
    """
    return np.array([(mask >> (64 * w)) & (2**64 - 1) for w in range(n_words)], dtype=np.uint64)


def question_mask(sheet: Sheet, question: dict[str, Any]) -> int:
    """The squares a question counts, as a bitmask (a zone's 4 sides, or one square)."""
    row, column = question_cell(sheet, question)
    if question["type"] == "count":
        return sheet.zone_mask(row, column)
    return 1 << sheet.square_index(row, column)


def count_answers(words: np.ndarray, question_words: np.ndarray) -> np.ndarray:
    """Each code's answer to one question: the filled squares among the question's squares.

    >>> count_answers(np.array([[7], [1]], dtype=np.uint64), np.array([6], dtype=np.uint64)).tolist()
    [2, 0]
    """
    answers = popcount(words[:, 0] & question_words[0])
    for w in range(1, words.shape[1]):
        answers += popcount(words[:, w] & question_words[w])
    return answers


# -- every legal code --------------------------------------------------------------------
@dataclass(frozen=True)
class CodeTable:
    """Every legal code of one game setup, as numpy arrays (row ``i`` is code ``i``, sorted by squares).

    ``piece_ids[i]`` are 5 indices into ``pieces``; ``words[i]`` is the filled-square bitmask split
    into 64-bit words (square ``s`` is bit ``s % 64`` of word ``s // 64``).
    """

    sheet: Sheet
    letters: str
    pieces: tuple[Piece, ...]
    piece_ids: np.ndarray
    words: np.ndarray

    def __len__(self) -> int:
        return len(self.piece_ids)

    @property
    def masks(self) -> np.ndarray:
        """The filled squares of every code as one ``uint64`` each (sheets of up to 64 squares)."""
        if self.words.shape[1] != 1:
            raise ValueError(f"this sheet has {len(self.sheet.squares)} squares: use .words or .filled")
        return self.words[:, 0]

    @cached_property
    def filled(self) -> np.ndarray:
        """Boolean matrix: ``filled[i, s]`` says whether code ``i`` fills square ``s``."""
        squares = np.arange(len(self.sheet.squares))
        bits = self.words[:, squares // 64] >> (squares % 64).astype(np.uint64)
        return (bits & np.uint64(1)).astype(bool)

    def answers(self, question: dict[str, Any]) -> np.ndarray:
        """Every code's answer to ``question``: 0-4 for ``count``, 0 or 1 for ``filled``.

        >>> table = legal_codes()
        >>> int(table.answers({"type": "count", "row": "O", "column": "B"}).max())
        4
        """
        return count_answers(self.words, split_words(question_mask(self.sheet, question), self.words.shape[1]))

    def consistent(self, answered: Iterable[dict[str, Any]]) -> np.ndarray:
        """Which codes agree with every ``{"question": ..., "answer": ...}`` entry (as in a view's
        ``questions``; filter them by ``target`` first)."""
        keep = np.ones(len(self), dtype=bool)
        for entry in answered:
            keep &= self.answers(entry["question"]) == int(entry["answer"])
        return keep

    def code(self, i: int) -> Code:
        return tuple(sorted((self.pieces[j] for j in self.piece_ids[i]), key=reading_key))

    def code_json(self, i: int) -> list[dict[str, str]]:
        return code_json(self.code(i), self.sheet)


def legal_codes(
    letters: str = LETTER_SETS[10], columns: int = 13, rows: int = 5, real_words: bool = False
) -> CodeTable:
    """Every legal code for this letter set and sheet size (kept in the bounded ``WORK_CACHE``; big setups
    take a while: ``MEASURED_CODES`` in :mod:`.solver` says how many codes they have).

    >>> table = legal_codes()
    >>> table.masks.shape, table.filled.shape
    ((44099,), (44099, 32))
    """
    table: CodeTable = WORK_CACHE.get(
        ("codes", letters, columns, rows, real_words),
        lambda: _legal_codes(letters, columns, rows, real_words),
        table_bytes,
    )
    return table


def table_bytes(table: CodeTable) -> int:
    return table.piece_ids.nbytes + table.words.nbytes


def _legal_codes(letters: str, columns: int, rows: int, real_words: bool) -> CodeTable:
    if real_words:
        table = legal_codes(letters, columns, rows)
        keep = _spelling_words(table.pieces, table.piece_ids, letters)
        return CodeTable(table.sheet, letters, table.pieces, table.piece_ids[keep], table.words[keep])
    sheet = Sheet(columns, rows)
    check_letters(letters)
    all_pieces = tuple(
        sorted(pieces(sheet, letters).values(), key=lambda p: (letters.index(p.letter), p.row, p.column))
    )
    ids, words = _disjoint_sets(all_pieces, letters, len(sheet.squares))
    ids, words = _unambiguous(ids, words)
    return CodeTable(sheet, letters, all_pieces, ids, words)


def _spelling_words(all_pieces: Sequence[Piece], ids: np.ndarray, letters: str) -> np.ndarray:
    """Which rows read an English word in writing order (rows whose letters fit no word are skipped)."""
    words = words_for(letters)
    letter_of = np.array([letters.index(p.letter) for p in all_pieces], dtype=np.int64)
    letter_sets = (np.int64(1) << letter_of[ids]).sum(axis=1)
    keep = np.isin(letter_sets, [sum(1 << letters.index(x) for x in word) for word in words])
    rank = np.empty(len(all_pieces), dtype=np.int64)
    rank[sorted(range(len(all_pieces)), key=lambda j: reading_key(all_pieces[j]))] = np.arange(len(all_pieces))
    candidates = ids[keep]
    in_order = np.take_along_axis(candidates, np.argsort(rank[candidates], axis=1), axis=1)
    spelled = (letter_of[in_order] * (32 ** np.arange(CODE_LENGTH)[::-1])).sum(axis=1)
    keep[keep] = np.isin(
        spelled, [sum(letters.index(x) * 32 ** (CODE_LENGTH - 1 - i) for i, x in enumerate(w)) for w in words]
    )
    return keep


def _piece_words(piece: Piece, n_words: int) -> np.ndarray:
    return np.array([(piece.mask >> (64 * w)) & (2**64 - 1) for w in range(n_words)], dtype=np.uint64)


def _disjoint_sets(all_pieces: Sequence[Piece], letters: str, n_squares: int) -> tuple[np.ndarray, np.ndarray]:
    """All sets of 5 pieces with different letters and no shared square, grown one letter at a time.

    ``all_pieces`` is sorted by letter, so every level's rows come out sorted by their last letter and
    the rows a piece may extend (those whose letters all come before it) are a prefix.
    """
    n_words = (n_squares + 63) // 64
    piece_words = np.stack([_piece_words(p, n_words) for p in all_pieces])
    letter_of = np.array([letters.index(p.letter) for p in all_pieces])
    ids = np.zeros((1, 0), dtype=np.int16)
    words = np.zeros((1, n_words), dtype=np.uint64)
    last = np.full(1, -1)
    for _ in range(CODE_LENGTH):
        grown_ids, grown_words, grown_last = [], [], []
        for j in range(len(all_pieces)):
            end = np.searchsorted(last, letter_of[j])
            free = _free_rows(words[:end], piece_words[j])
            grown_ids.append(np.column_stack([ids[:end][free], np.full(len(free), j, dtype=np.int16)]))
            grown_words.append(words[:end][free] | piece_words[j])
            grown_last.append(np.full(len(free), letter_of[j]))
        ids, words, last = np.concatenate(grown_ids), np.concatenate(grown_words), np.concatenate(grown_last)
    return ids, words


def _free_rows(words: np.ndarray, piece: np.ndarray) -> np.ndarray:
    """Indices of the rows that share no square with ``piece``."""
    if words.shape[1] == 1:
        return np.flatnonzero((words[:, 0] & piece[0]) == 0)
    return np.flatnonzero(~np.any(words & piece, axis=1))


def _unambiguous(ids: np.ndarray, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keep the sets whose filled squares no other set fills; sort them by their squares."""
    order = _sorting_order(words)
    words = words[order]
    same_as_next = np.all(words[1:] == words[:-1], axis=1)
    alone = np.ones(len(words), dtype=bool)
    alone[1:] &= ~same_as_next
    alone[:-1] &= ~same_as_next
    return ids[order[alone]], words[alone]


def _sorting_order(words: np.ndarray) -> np.ndarray:
    """The row order that sorts ``words``; one plain sort of (mask, row) keys when they fit in 64 bits."""
    index_bits = max(1, int(len(words)).bit_length())
    if words.shape[1] == 1 and int(words[:, 0].max(initial=0)).bit_length() + index_bits <= 64:
        keys = np.sort((words[:, 0] << np.uint64(index_bits)) | np.arange(len(words), dtype=np.uint64))
        return (keys & np.uint64(2**index_bits - 1)).astype(np.int64)
    return np.lexsort(words.T[::-1])

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import codecrack
from codecrack.games.alphacode import legal_codes
from codecrack.games.alphacode.codes import (
    check_code,
    code_mask,
    codes_filling,
    describe_code,
    parse_code,
    pieces,
    random_code,
    reading,
)
from codecrack.games.alphacode.sheet import Sheet, all_questions, answer

from .helpers import CODE_A, CODE_B, letters

SHEET = Sheet()
AJ = "abcdefghij"


def parsed(text, sheet=SHEET, letter_set=AJ):
    return parse_code(letters(text, sheet), sheet, letter_set)


def test_the_default_setup_has_44099_legal_codes():
    table = legal_codes()
    assert len(table) == 44099
    assert table.masks.dtype == np.uint64 and table.filled.shape == (44099, 32)
    assert len(np.unique(table.masks)) == 44099


def test_table_rows_are_legal_codes_with_their_own_squares():
    table = legal_codes()
    for i in random.Random(1).sample(range(len(table)), 40):
        code = table.code(i)
        check_code(code, SHEET, AJ)
        assert code_mask(code) == int(table.masks[i])
        assert table.filled[i].tolist() == [bool(code_mask(code) >> s & 1) for s in range(32)]
        assert parse_code(table.code_json(i), SHEET, AJ) == code


def test_the_table_answers_questions_like_the_sheet():
    table = legal_codes()
    rng = random.Random(5)
    questions = [q for q in all_questions(SHEET)]
    for i in rng.sample(range(len(table)), 10):
        mask = int(table.masks[i])
        for question in rng.sample(questions, 8):
            assert table.answers(question)[i] == int(answer(SHEET, question, mask))
    answered = [{"question": q, "answer": answer(SHEET, q, int(table.masks[7]))} for q in questions]
    assert np.flatnonzero(table.consistent(answered)).tolist() == [7]


def test_pieces_slide_by_whole_zones_beyond_their_box():
    # c slid up into the top half of zone column B, and i on column A: both legal placements
    check_code(parsed("c@NA h@NC i@NE e@NG f@NK"), SHEET, AJ)
    check_code(parsed("i@NA j@NA h@NE c@NG f@NI"), SHEET, AJ)
    check_code(parsed("f@NA j@NA h@NE c@NI i@PM"), SHEET, AJ)


def test_a_valid_code_reads_in_writing_order():
    assert reading(parsed(CODE_B)) == "chief"
    assert describe_code(parsed(CODE_A), SHEET) == "a@NA h@NE f@NI i@PK j@NK"


@pytest.mark.parametrize(
    "text, message",
    [
        ("a@B b@D h@H f@J i@PK", "letters a and b touch: both fill square \\(O, C\\)"),
        ("a@B h@F f@J i@PK a@L", "letter a is used twice"),
        ("a@B h@F f@J i@PK", "exactly 5 letters, not 4"),
        ("a@B h@F f@J i@PK j@L c@NA", "exactly 5 letters, not 6"),
        ("a@B h@F f@J i@PK m@L", "letter 'm' is not in this game's set"),
        ("a@B h@F f@J i@PK k@NK", "letter 'k' is not in this game's set"),
        ("a@B h@F f@J i@PK j@N", "column 'N' is off the sheet"),
        ("a@SA h@F f@J i@PK j@L", "row 'S' is off the sheet"),
        ("a@OB h@F f@J i@PK j@L", "\\(O, B\\) is a zone"),
        ("a@NB h@F f@J i@PK j@L", "\\(N, B\\) is a square"),
        ("a@PA h@F f@J i@PK j@L", "letter a at \\(P, A\\) would hang off the sheet"),
        ("a@NM h@F f@J i@PK j@L", "letter a at \\(N, M\\) would hang off the sheet"),
        ("a@C h@F f@J i@PK j@L", "column C is not a zone column"),
        ("e@NA i@PC d@NE c@NI b@NK", "ambiguous: .* fills exactly the same squares"),
    ],
)
def test_bad_codes_are_rejected_with_the_reason(text, message):
    with pytest.raises(codecrack.IllegalAction, match=message):
        check_code(parsed(text), SHEET, AJ)


@pytest.mark.parametrize(
    "entries",
    [
        None,
        "a@B",
        [1, 2, 3, 4, 5],
        [{"letter": "a"}] * 5,
        [{"letter": "a", "row": "N", "column": "A", "colour": "red"}] * 5,
    ],
)
def test_malformed_codes_are_rejected(entries):
    with pytest.raises(codecrack.IllegalAction):
        parse_code(entries, SHEET, AJ)


def test_ambiguous_squares_have_several_readings():
    mask = code_mask(parsed("e@NA i@PC d@NE c@NI b@NK"))
    readings = {describe_code(code, SHEET) for code in codes_filling(mask, SHEET, AJ, limit=10)}
    assert "f@NA j@NA d@NE c@NI b@NK" in readings and len(readings) == 4


def test_random_codes_are_legal_and_come_from_the_seed():
    first = [random_code(random.Random(4), SHEET, AJ) for _ in range(2)]
    assert first[0] == first[1]
    rng = random.Random(9)
    table_masks = set(legal_codes().masks.tolist())
    for _ in range(15):
        code = random_code(rng, SHEET, AJ)
        check_code(code, SHEET, AJ)
        assert code_mask(code) in table_masks


def test_random_codes_work_with_twenty_letters_and_tall_sheets():
    rng = random.Random(2)
    twenty = "abcdefghijmnoprstuwy"
    for sheet in (Sheet(13, 5), Sheet(15, 9)):
        code = random_code(rng, sheet, twenty)
        check_code(code, sheet, twenty)


def test_letters_shift_vertically_on_taller_sheets():
    sheet = Sheet(13, 7)
    code = parsed("a@PA h@NE f@PI i@NK j@PK", sheet)
    check_code(code, sheet, AJ)
    rows = {entry["row"] for entry in letters("a@PA j@PK", sheet)}
    assert rows == {"P"}
    table = legal_codes(AJ, 15, 5)
    assert len(table) == 229364 and table.filled.shape[1] == len(Sheet(15, 5).squares)


def test_tables_of_big_sheets_keep_squares_beyond_64_bits():
    from codecrack.games.alphacode.codes import CodeTable, _disjoint_sets, _unambiguous, pieces

    sheet = Sheet(25, 5)
    assert len(sheet.squares) == 62
    wide = Sheet(19, 7)
    assert len(wide.squares) > 64
    chosen = tuple(p for p in pieces(wide, AJ).values() if p.column >= 10)  # sorted by letter
    ids, words = _unambiguous(*_disjoint_sets(chosen, AJ, len(wide.squares)))
    table = CodeTable(wide, AJ, chosen, ids, words)
    assert words.shape[1] == 2 and len(table) > 0
    with pytest.raises(ValueError, match="squares"):
        table.masks
    for i in random.Random(3).sample(range(len(table)), 20):
        assert code_mask(table.code(i)) == sum(1 << s for s in np.flatnonzero(table.filled[i]).tolist())


def disjoint_sets():
    """Every set of 5 different letters placed without shared squares, legal or not (64,817)."""
    from codecrack.games.alphacode.codes import _disjoint_sets

    ordered = tuple(sorted(pieces(SHEET, AJ).values(), key=lambda p: (AJ.index(p.letter), p.row, p.column)))
    ids, _ = _disjoint_sets(ordered, AJ, len(SHEET.squares))
    return ordered, ids


ORDERED, DISJOINT = disjoint_sets()


@settings(max_examples=50, deadline=None)
@given(st.integers(0, len(DISJOINT) - 1))
def test_a_code_is_legal_exactly_when_the_table_holds_it(index):
    code = tuple(ORDERED[j] for j in DISJOINT[index])
    table = legal_codes()
    row = int(np.searchsorted(table.masks, np.uint64(code_mask(code))))
    in_table = row < len(table) and int(table.masks[row]) == code_mask(code)
    legal = True
    try:
        check_code(code, SHEET, AJ)
    except codecrack.IllegalAction as error:
        legal = False
        assert "ambiguous" in str(error)
    assert legal == in_table
    assert len(DISJOINT) == 64817

import pytest

import codecrack
from codecrack.games.alphacode.sheet import Sheet, all_questions, answer, question_cell


def test_default_sheet_geometry_follows_the_rulings():
    sheet = Sheet()
    assert sheet.column_labels == "ABCDEFGHIJKLM" and sheet.row_labels == "NOPQR"
    assert len(sheet.squares) == 32 and len(sheet.zones) == 12
    assert {sheet.label(*zone)[1] for zone in sheet.zones} == {"O", "Q"}
    assert {sheet.label(*zone)[4] for zone in sheet.zones} == set("BDFHJL")
    assert sheet.kind(*sheet.cell("N", "A")) == "corner"
    assert sheet.kind(*sheet.cell("Q", "I")) == "square" and sheet.kind(*sheet.cell("O", "D")) == "zone"


def test_every_zone_has_four_squares_around_it():
    sheet = Sheet()
    for zone in sheet.zones:
        assert sheet.zone_mask(*zone).bit_count() == 4


def test_sheets_of_one_size_share_their_cells():
    """Each game holds its sheet for its table's life: the cells of a size are made once
    (docs/benchmarks.md, "Idle sockets")."""
    one, other = Sheet(), Sheet()
    assert one.squares is other.squares and one.zones is other.zones
    assert Sheet(15, 7).squares is not one.squares


def test_larger_odd_sheets_use_the_same_lattice():
    sheet = Sheet(15, 7)
    assert len(sheet.zones) == 7 * 3
    assert len(sheet.squares) == 4 * 7 + 3 * 8
    assert len(all_questions(sheet)) == len(sheet.zones) + len(sheet.squares)


@pytest.mark.parametrize("columns, rows", [(12, 5), (13, 6), (11, 5), (13, 3), (27, 5), (13, 15)])
def test_bad_sheet_sizes_are_refused(columns, rows):
    with pytest.raises(ValueError):
        Sheet(columns, rows)
    with pytest.raises(codecrack.OptionError):
        codecrack.new_game("alphacode", players=2, seed=1, columns=columns, rows=rows)


def test_answers_count_sides_and_report_squares():
    sheet = Sheet()
    filled = sum(1 << sheet.square_index(*sheet.cell(r, c)) for r, c in ["NB", "PB", "OA"])
    assert answer(sheet, {"type": "count", "row": "O", "column": "B"}, filled) == 3
    assert answer(sheet, {"type": "count", "row": "Q", "column": "B"}, filled) == 1
    assert answer(sheet, {"type": "filled", "row": "N", "column": "B"}, filled) is True
    assert answer(sheet, {"type": "filled", "row": "O", "column": "C"}, filled) is False


@pytest.mark.parametrize(
    "question, message",
    [
        ({"type": "count", "row": "N", "column": "A"}, "corner point"),
        ({"type": "filled", "row": "P", "column": "C"}, "corner point"),
        ({"type": "count", "row": "Q", "column": "I"}, "is a square, not a zone"),
        ({"type": "filled", "row": "O", "column": "D"}, "is a zone, not a square"),
        ({"type": "filled", "row": "S", "column": "B"}, "row 'S' is off the sheet"),
        ({"type": "count", "row": "O", "column": "N"}, "column 'N' is off the sheet"),
        ({"type": "count", "row": 1, "column": "B"}, "off the sheet"),
        ({"type": "look", "row": "O", "column": "B"}, "'count' .* or 'filled'"),
    ],
)
def test_question_errors_name_the_problem(question, message):
    with pytest.raises(codecrack.IllegalAction, match=message):
        question_cell(Sheet(), question)

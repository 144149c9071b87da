import pytest

from codecrack.games.alphacode import letters
from codecrack.games.alphacode.letters import BASE_GLYPHS, GLYPHS, LETTER_SETS, check_letters, glyph_cells, shape

RULINGS = {
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


def test_base_letters_are_the_rulings_table():
    assert {k: "".join(sorted(v)) for k, v in BASE_GLYPHS.items()} == RULINGS
    assert LETTER_SETS[10] == "abcdefghij"


def test_segments_sit_where_the_rulings_put_them():
    assert glyph_cells("a") == [(0, 1), (1, 2), (2, 1), (3, 0), (3, 2), (4, 1)]
    assert glyph_cells("i") == [(3, 2)]


def test_twenty_letters_are_all_distinct_up_to_translation():
    assert len(LETTER_SETS[20]) == 20 and set(LETTER_SETS[10]) < set(LETTER_SETS[20])
    assert len({shape(x) for x in LETTER_SETS[20]}) == 20
    check_letters(LETTER_SETS[20])


def test_translation_is_by_even_steps_only(monkeypatch):
    # a lone top bar and a lone upper-left bar are not translations of each other; a lone top
    # bar and a lone middle bar are
    monkeypatch.setitem(GLYPHS, "x", "a")
    monkeypatch.setitem(GLYPHS, "y", "f")
    monkeypatch.setitem(GLYPHS, "z", "g")
    letters.shape.cache_clear()
    letters.frame_offset.cache_clear()
    try:
        assert shape("x") != shape("y")
        assert shape("x") == shape("z")
        with pytest.raises(ValueError, match="same pattern"):
            check_letters("abcdexz")
    finally:
        letters.shape.cache_clear()
        letters.frame_offset.cache_clear()


def test_letter_sets_must_be_known_and_different():
    with pytest.raises(ValueError):
        check_letters("abcda")
    with pytest.raises(ValueError):
        check_letters("abcd")
    with pytest.raises(ValueError):
        check_letters("abcdk")

"""The real-words option (advanced rule)."""

import random

import pytest

import codecrack
from codecrack.games.alphacode import legal_codes
from codecrack.games.alphacode.codes import check_code, parse_code, random_code, reading
from codecrack.games.alphacode.sheet import Sheet
from codecrack.games.alphacode.words import five_letter_words, spells_word, words_for

from .helpers import CODE_A, CODE_B, CODE_C, code_action, declare, letters


def test_the_word_list_is_a_local_english_list():
    assert len(five_letter_words()) > 3000
    assert spells_word("chief") and spells_word("bread") and not spells_word("ahfij")
    assert {"chief", "chide", "faced", "fiche"} <= words_for("abcdefghij")


def test_with_a_to_j_sixteen_legal_codes_spell_a_word():
    table = legal_codes(real_words=True)
    assert len(table) == 16
    assert {reading(table.code(i)) for i in range(len(table))} == {"chide", "chief", "faced", "fiche"}


def test_codes_must_spell_a_word_in_writing_order():
    game = codecrack.new_game("alphacode", players=2, seed=1, real_words=True)
    with pytest.raises(codecrack.IllegalAction, match="'ahfij' .* is not an English word"):
        game.apply(0, code_action(CODE_A))
    game.apply(0, code_action(CODE_B))
    game.apply(1, {"type": "random_code"})
    assert spells_word("".join(entry["letter"] for entry in game.view(1)["code"]))
    with pytest.raises(codecrack.IllegalAction, match="not an English word"):
        game.apply(game.view(None)["first"], declare(CODE_A))


def test_twenty_letter_words_are_checked_the_same_way():
    sheet, twenty = Sheet(), "abcdefghijmnoprstuwy"
    code = parse_code(letters("b@NA r@NC e@NE a@NG d@NK", sheet), sheet, twenty)
    assert reading(code) == "bread"
    check_code(code, sheet, twenty, real_words=True)
    with pytest.raises(codecrack.IllegalAction, match="'breda' .* is not an English word"):
        check_code(parse_code(letters("b@NA r@NC e@NE d@NG a@NK", sheet), sheet, twenty), sheet, twenty, True)


def test_random_word_codes_come_from_the_seed():
    sheet = Sheet()
    first = random_code(random.Random(3), sheet, "abcdefghij", real_words=True)
    assert first == random_code(random.Random(3), sheet, "abcdefghij", real_words=True)
    assert reading(first) in {"chide", "chief", "faced", "fiche"}
    assert reading(parse_code(letters(CODE_C), sheet, "abcdefghij")) == "fiche"


def test_word_codes_on_larger_sheets_are_drawn_without_the_table():
    rng = random.Random(1)
    for sheet in (Sheet(25, 13), Sheet(13, 7)):
        code = random_code(rng, sheet, "abcdefghij", real_words=True)
        check_code(code, sheet, "abcdefghij", real_words=True)
        assert spells_word(reading(code))

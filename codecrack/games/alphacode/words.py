"""The English word list for the real-words rule: five-letter words from the ``english-words`` package.

The list is GCIDE (the Collaborative International Dictionary of English) as packaged by
``english-words``, lower-cased, letters only. Nothing is downloaded at run time.

>>> spells_word("badge"), spells_word("abcde")
(True, False)
>>> "chief" in words_for("abcdefghij")
True
"""

from __future__ import annotations

from functools import cache


@cache
def five_letter_words() -> frozenset[str]:
    """Every five-letter word of the list whose letters are all different."""
    from english_words import get_english_words_set

    words = get_english_words_set(["gcide"], alpha=True, lower=True)
    return frozenset(w for w in words if len(w) == 5 and len(set(w)) == 5 and w.isascii())


def spells_word(text: str) -> bool:
    return text in five_letter_words()


@cache
def words_for(letters: str) -> frozenset[str]:
    """The words that can be spelled with ``letters`` (each used at most once)."""
    return frozenset(w for w in five_letter_words() if set(w) <= set(letters))


"""The English word list for the real-words rule: five-letter words from the ``english-words`` package.

A word counts when both dictionaries packaged by ``english-words`` list it: GCIDE (the
Collaborative International Dictionary of English) and web2 (Webster's Second), lower-cased,
letters only. Requiring both drops fragments and oddities such as "thyro". Nothing is downloaded
at run time.

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

    def five_letters(source: str) -> set[str]:
        words = get_english_words_set([source], alpha=True, lower=True)
        return {w for w in words if len(w) == 5 and len(set(w)) == 5 and w.isascii()}

    return frozenset(five_letters("gcide") & five_letters("web2"))


def spells_word(text: str) -> bool:
    return text in five_letter_words()


@cache
def words_for(letters: str) -> frozenset[str]:
    """The words that can be spelled with ``letters`` (each used at most once)."""
    return frozenset(w for w in five_letter_words() if set(w) <= set(letters))

"""The searches: greedy values are exact, rollouts improve on greedy, the opening book is reproducible."""

import numpy as np
import pytest

from codecrack.games.alphacode.opening import BOOK_DEPTH, BOOK_WIDTH, _book, book_question, history_key
from codecrack.games.alphacode.solver import CodeSpace, answer_counts, entropy, greedy_turns, rollout

SPACE = CodeSpace.of()


def small_set():
    alive = SPACE.everything()
    for q, a in [(0, 2), (5, 2), (3, 1), (9, 2)]:
        alive = SPACE.keep(alive, q, a)
    return alive


def play_greedy(alive, secret):
    """Turns the greedy policy takes against ``secret`` (declaring one of a pair, the lower first)."""
    turns = 0
    while len(alive) > 2:
        q = int(np.argmax(entropy(answer_counts(SPACE.matrix(alive)))))
        alive = alive[SPACE.column(alive, q) == SPACE.column(np.array([secret]), q)[0]]
        turns += 1
    return turns + (1 if alive[0] == secret else 2)


def test_greedy_turns_is_the_average_over_the_candidates():
    alive = small_set()
    assert 5 < len(alive) < 1000
    exact = greedy_turns(SPACE.matrix(alive), alive, np.arange(len(alive)), True, {})
    assert exact == pytest.approx(sum(play_greedy(alive, s) for s in alive) / len(alive))


def test_a_rollout_is_never_worse_than_greedy():
    alive = small_set()
    value, q = rollout(SPACE, alive, True, 6)
    assert value <= greedy_turns(SPACE.matrix(alive), alive, np.arange(len(alive)), True, {}) + 1e-12
    assert entropy(SPACE.counts(alive))[q] > 0


def test_the_book_matches_a_live_search_and_covers_only_the_default_setup():
    key, stored = max(_book().items(), key=lambda item: item[0].count("|"))
    answers = []
    for part in key.split("|"):
        text, value = part.split("=")
        kind, where = text.split()
        answers.append((SPACE.question_index({"type": kind, "row": where[0], "column": where[1]}), int(value)))
    assert history_key(SPACE, answers) == key and len(answers) == BOOK_DEPTH
    alive = SPACE.everything()
    for q, a in answers:
        alive = SPACE.keep(alive, q, a)
    assert SPACE.questions[rollout(SPACE, alive, True, BOOK_WIDTH)[1]] == stored
    assert book_question(SPACE, answers) == stored
    assert book_question(CodeSpace.of(10, 13, 5, True), []) is None


def test_each_setup_keeps_its_own_rollout_memo():
    words = CodeSpace.of(real_words=True)
    assert words.greedy_memo is not SPACE.greedy_memo
    rollout(words, words.everything(), True, 6)
    assert words.greedy_memo and all(len(key[0]) <= 16 * 8 for key in words.greedy_memo)

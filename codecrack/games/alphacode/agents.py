"""Alphabet Code agents: three solver tiers that also make codes.

- ``easy`` asks plausible questions (a random one among the more informative half) and declares
  only when sure. It makes a random legal code.
- ``medium`` asks the question whose answer has the most entropy over the candidates and declares
  when sure. It makes a random legal code.
- ``hard`` minimises the expected number of turns: an opening book, then rollouts of the greedy
  policy (exact expected turns after each of the best questions) or a two-ply lookahead on big
  sets. It spends its spare miss on a declaration when that is expected to save turns (always
  with two candidates left), races (guesses when the opponent is about to win) and makes
  hard-to-crack codes.

Every agent sees only its seat's view; the candidates are rebuilt from the public answers and
the seat's own (or, in a duel, the spoken) declarations. In the final chance and the submission
cascade they declare a candidate.

>>> import codecrack
>>> from codecrack.core.runner import run_game
>>> game = codecrack.new_game("alphacode", players=2, seed=5)
>>> run = run_game(game, {0: AGENTS["hard"](seed=1), 1: AGENTS["medium"](seed=2)})
>>> game.result["winners"] in ([0], [1])
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.agent import Agent
from .knowledge import Tracker
from .makers import tricky_code
from .opening import book_question
from .solver import CodeSpace, declare_turns, entropy, informative, lookahead, rollout

MEMO_DEPTH = 2  # decisions after up to this many answers are memoised per process ...
MEMO_SIZE = 10_000  # ... this many at most (then forgotten all at once)
LOOKAHEAD_WORK = 300_000  # candidates x width of the hard tier's two-ply search
ROLLOUT_WORK = 4_800  # candidates x width of its rollout search (used while the width is 2 or more)
MAX_WIDTH = 6

_MEMO: dict[tuple[object, ...], dict[str, Any]] = {}


def declaration(space: CodeSpace, code: int) -> dict[str, Any]:
    return {"type": "declare", "letters": space.code_json(code)}


def question(space: CodeSpace, q: int) -> dict[str, Any]:
    return dict(space.questions[q])


def greedy_question(space: CodeSpace, alive: np.ndarray) -> int:
    """The medium tier's question: the most entropy."""
    return int(np.argmax(entropy(space.counts(alive))))


def hard_question(
    space: CodeSpace,
    alive: np.ndarray,
    answers: list[tuple[int, int]] | None,
    spare_miss: bool,
    may_declare: bool = True,
) -> int | None:
    """The hard tier's question for two or more candidates, or ``None`` to declare one of them now
    (spending the spare miss). ``answers`` (question index, answer) open the book; pass ``None``
    when a wrong declaration also shaped the candidates."""
    booked = None if answers is None or not spare_miss else book_question(space, answers)
    if booked is not None:
        return space.question_index(booked)
    if ROLLOUT_WORK // len(alive) >= 2:
        turns, q = rollout(space, alive, spare_miss, min(MAX_WIDTH, ROLLOUT_WORK // len(alive)))
    else:
        turns, q = lookahead(space, alive, spare_miss, max(1, min(MAX_WIDTH, LOOKAHEAD_WORK // len(alive))))
    return None if may_declare and spare_miss and declare_turns(len(alive)) <= turns else q


class Solver(Agent):
    """The shared frame of the tiers: code making, tracking, last chances. Tiers choose moves."""

    name = "solver"
    memoise = True  # the tier's questions depend only on the candidates (no chance)

    def __init__(self, seed: int = 0, solo: bool = False) -> None:
        super().__init__(seed)
        self.solo = solo  # ignore the race against the opponent (the solver benchmark)
        self.knowledge = Tracker("target")

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        if view["phase"] == "code":
            return self.make_code(view)
        space = CodeSpace.for_view(view)
        alive = self.knowledge.update(view)
        if len(alive) == 0:  # only possible if the table and the engine disagree
            raise RuntimeError("no legal code fits the answers")
        if view["phase"] in ("final", "cascade"):
            return declaration(space, self.rng.choice(alive.tolist()))
        if view["phase"] == "play" and len(alive) == 1:
            return declaration(space, int(alive[0]))
        if len(alive) == 1:  # the handicap opening allows questions only
            return next(a for a in view["legal_actions"] if a["type"] in ("count", "filled"))
        spare_miss = view["misses"][view["seat"]] == 0
        memo = self.memoise and self.knowledge.pristine and len(self.knowledge.answers) <= MEMO_DEPTH
        key = (self.name, space.setup, tuple(sorted(self.knowledge.answers)), spare_miss, view["phase"])
        if memo and key in _MEMO:
            return dict(_MEMO[key])
        action = self.choose(view, space, alive, spare_miss)
        if memo and action["type"] != "declare":  # declarations pick a candidate with the agent's rng
            if len(_MEMO) >= MEMO_SIZE:
                _MEMO.clear()
            _MEMO[key] = action
        return action

    def make_code(self, view: dict[str, Any]) -> dict[str, Any]:
        return {"type": "random_code"}

    def choose(self, view: dict[str, Any], space: CodeSpace, alive: np.ndarray, spare_miss: bool) -> dict[str, Any]:
        """A question (or, in phase ``play``, a declaration) for two or more candidates."""
        raise NotImplementedError


class EasySolver(Solver):
    name = "easy"
    memoise = False

    def choose(self, view: dict[str, Any], space: CodeSpace, alive: np.ndarray, spare_miss: bool) -> dict[str, Any]:
        counts = space.counts(alive)
        gains = entropy(counts)
        useful = np.flatnonzero(informative(counts))
        plausible = useful[gains[useful] >= np.median(gains[useful])]
        return question(space, int(self.rng.choice(plausible.tolist())))


class MediumSolver(Solver):
    name = "medium"

    def choose(self, view: dict[str, Any], space: CodeSpace, alive: np.ndarray, spare_miss: bool) -> dict[str, Any]:
        return question(space, greedy_question(space, alive))


class HardSolver(Solver):
    name = "hard"

    def __init__(self, seed: int = 0, solo: bool = False) -> None:
        super().__init__(seed, solo)
        self.exposure = Tracker("seat")  # own code, as the opponent sees it

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        if view["phase"] == "play" and view["mode"] == "duel" and not self.solo:
            alive = self.knowledge.update(view)
            if len(alive) > 1 and len(self.exposure.update(view)) == 1:
                return self.race(view, CodeSpace.for_view(view), alive)
        return super().act(view)

    def make_code(self, view: dict[str, Any]) -> dict[str, Any]:
        space = CodeSpace.for_view(view)
        return {"type": "code", "letters": space.code_json(tricky_code(space, self.rng))}

    def choose(self, view: dict[str, Any], space: CodeSpace, alive: np.ndarray, spare_miss: bool) -> dict[str, Any]:
        answers = self.knowledge.answers if self.knowledge.pristine else None
        q = hard_question(space, alive, answers, spare_miss, view["phase"] == "play")
        if q is None:
            return declaration(space, self.rng.choice(alive.tolist()))
        return question(space, q)

    def race(self, view: dict[str, Any], space: CodeSpace, alive: np.ndarray) -> dict[str, Any]:
        """The opponent knows this seat's code and declares next turn. If they are the second
        player that wins outright: guess now. Otherwise a final chance follows: guess now too if a
        spare miss makes that two shots and no question splits the candidates three ways; else ask
        the question that splits them most, to guess better at the final chance."""
        guess = declaration(space, self.rng.choice(alive.tolist()))
        if view["first"] == view["seat"]:
            return guess
        parts = np.count_nonzero(space.counts(alive), axis=1)
        if view["misses"][view["seat"]] == 0 and parts.max() <= 2:
            return guess
        return question(space, int(np.argmax(parts)))


class Sparring(Agent):
    """Seat 1 of the solver benchmark and of the daily par: makes the code to crack, then asks questions and never declares."""

    name = "sparring"

    def __init__(self, seed: int = 0, tricky: bool = False) -> None:
        super().__init__(seed)
        self.maker = HardSolver(seed) if tricky else None

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        if view["phase"] == "code" and self.maker is not None:
            return self.maker.make_code(view)
        return next(a for a in view["legal_actions"] if a["type"] in ("random_code", "count", "filled", "pass"))


AGENTS = {"easy": EasySolver, "medium": MediumSolver, "hard": HardSolver}

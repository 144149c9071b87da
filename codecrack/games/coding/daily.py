"""The daily Coding puzzle (issue 28 §3, for the web host of :mod:`codecrack.core.daily`): a seat
of a real self-play game, about to decode, with its data and hack cards and the public record.
The player writes one opponent's code; the score is the exact chance that it is right, from that
seat's own view (:meth:`~codecrack.games.coding.facts.Facts.belief`), over the best code's.

A day's puzzle comes from the server's secret: the number of the day seeds a three-player game of
the ``medium`` tier against itself; the puzzle is its last position where the seat to move may
decode, no code is sure and one code is at least :data:`MARGIN` likelier than any other
(the next seeds if a game has none).

>>> puzzle = find_puzzle(1)
>>> 0 < puzzle.best_chance < 1 and puzzle.view["seat"] == puzzle.seat
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

import numpy as np

from ...core.daily import DecisionDaily, number_of_day
from ...core.errors import IllegalAction
from ...core.registry import new_game, replay
from ...core.runner import run_game
from ...i18n import N_, _
from .agents import AGENTS
from .belief import CODES, code_index
from .facts import code_of
from .reading import facts_from_view, live_opponents, own_code

PLAYERS = 3
MARGIN = 0.1  # the best code's chance beats every other one's by this much at least
TRIES = 50  # seeds tried after the day's before giving up (none has needed more than a few)
GRADES = ("easy", "medium", "hard")
SHOWN_ODDS = 10  # the likeliest codes listed with the answer
Decode = tuple[int, int]  # (target seat, index of the code in belief.CODES)


@dataclass(frozen=True)
class Puzzle:
    seed: int
    step: int  # actions played before the position
    seat: int
    view: dict[str, Any]  # the seat's own view; its legal actions are the decodes only
    chances: dict[int, np.ndarray]  # live opponent -> chance of each code, from the seat's view

    @property
    def best(self) -> Decode:
        return max(((t, int(np.argmax(p))) for t, p in self.chances.items()), key=self.chance)

    @property
    def best_chance(self) -> float:
        return self.chance(self.best)

    def chance(self, decode: Decode) -> float:
        return float(self.chances[decode[0]][decode[1]])


def seat_chances(view: dict[str, Any]) -> dict[int, np.ndarray]:
    """The exact chance of every code of every live opponent, from ``view`` alone."""
    opponents, mine = live_opponents(view), own_code(view)
    if mine is None:  # every seat orders its code before anyone may decode
        raise ValueError("the seat has no code yet")
    belief, seats = facts_from_view(view).belief(view["seat"], mine, opponents)
    return {seat: belief.probs[index] for index, seat in enumerate(seats) if seat in opponents}


def clear(chances: dict[int, np.ndarray]) -> bool:
    ranked = sorted((float(p) for probs in chances.values() for p in probs), reverse=True)
    return ranked[0] < 1 and ranked[0] - ranked[1] >= MARGIN


def decodes_only(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "legal_actions": [a for a in view["legal_actions"] if a["type"] == "decode"]}


def in_game(seed: int) -> Puzzle | None:
    """The last clear decoding position of the self-play game seeded with ``seed``, if any."""
    game = new_game("coding", players=PLAYERS, seed=seed)
    run_game(game, {seat: AGENTS["medium"](seed=seed + seat) for seat in range(PLAYERS)})
    record = game.record()
    again = replay({**record, "actions": []})
    found = None
    for step, (seat, action) in enumerate(record["actions"]):
        view = again.view(seat)
        if any(a["type"] == "decode" for a in view["legal_actions"]):
            chances = seat_chances(view)
            if clear(chances):
                found = Puzzle(seed, step, seat, decodes_only(view), chances)
        again.apply(seat, action)
    return found


@lru_cache(maxsize=4)
def find_puzzle(number: int) -> Puzzle:
    """Puzzle ``number``: from the game seeded with it, or the next seeds."""
    for seed in range(number, number + TRIES):
        found = in_game(seed)
        if found is not None:
            return found
    raise RuntimeError(f"no clear decoding position in {TRIES} games from seed {number}")


def grade(puzzle: Puzzle) -> str:
    """The weakest tier whose likeliest decode in this view is as likely as the best, else ``hard``."""
    for tier in GRADES[:-1]:
        _p, target, code = AGENTS[tier](seed=puzzle.seed).read(puzzle.view).best_decode()
        if puzzle.chance((target, code)) >= puzzle.best_chance:
            return tier
    return GRADES[-1]


def decode_of(action: dict[str, Any]) -> Decode:
    return action["target"], code_index(*code_of(action["code"]))


def decode_action(decode: Decode) -> dict[str, Any]:
    target, code = decode
    return {"type": "decode", "target": target, "code": "".join(str(symbol) for symbol in CODES[code])}


class CodingDaily(DecisionDaily):
    def of_day(self, secret: bytes, day: date) -> int:
        return number_of_day(secret, day, "coding-daily", 2**31 - TRIES)

    def puzzle(self, number: int) -> dict[str, Any]:
        puzzle = find_puzzle(number)
        return {"grade": grade(puzzle), "view": puzzle.view}

    def chances(self, number: int, guess: dict[str, Any]) -> tuple[float, float]:
        puzzle = find_puzzle(number)
        if guess not in puzzle.view["legal_actions"]:
            raise IllegalAction(N_("not a code this seat can write"))
        return puzzle.chance(decode_of(guess)), puzzle.best_chance

    def answer(self, number: int, guess: dict[str, Any], day: date, score: int, solved: bool) -> dict[str, Any]:
        puzzle = find_puzzle(number)
        ranked = sorted(
            ((target, int(code)) for target, probs in puzzle.chances.items() for code in np.flatnonzero(probs)),
            key=lambda decode: (-puzzle.chance(decode), decode),
        )

        def entry(decode: Decode) -> dict[str, Any]:
            return {"guess": decode_action(decode), "p": round(puzzle.chance(decode), 6)}

        share = _("codecrack daily Coding puzzle {day}: {score} %").format(day=day.isoformat(), score=score)
        return {
            "chosen": entry(decode_of(guess)),
            "best": entry(puzzle.best),
            "odds": [entry(decode) for decode in ranked[:SHOWN_ODDS]],
            "possible": len(ranked),  # codes with a chance, over every live opponent
            "solved": solved,
            "score": score,
            "share": "\n".join([share, "🟩" if solved else "🟥"]),
        }


DAILY = CodingDaily()

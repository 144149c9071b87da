"""The daily Coda puzzle for the web host (:mod:`codecrack.core.daily`): one of the shipped
positions (:mod:`.puzzles`) a day; the player guesses one hidden tile and its value."""

from __future__ import annotations

from datetime import date
from typing import Any

from ...core.daily import DecisionDaily
from ...core.errors import IllegalAction
from ...i18n import N_, _
from .puzzles import Guess, guess_action, guess_of, odds, position, puzzle_of_day, shipped


def every_guess(view: dict[str, Any]) -> dict[Guess, float]:
    """The chance of every guess the seat may make (0 for a value the tile cannot hold)."""
    chances = odds(view)
    legal = [guess_of(action) for action in view["legal_actions"] if action["type"] == "guess"]
    return {guess: chances.get(guess, 0.0) for guess in legal}


class CodaDaily(DecisionDaily):
    def of_day(self, secret: bytes, day: date) -> int:
        return puzzle_of_day(secret, day)

    def puzzle(self, number: int) -> dict[str, Any]:
        puzzle = shipped()[number]
        return {"grade": puzzle["grade"], "view": position(puzzle)}

    def chances(self, number: int, guess: dict[str, Any]) -> tuple[float, float]:
        view = position(shipped()[number])
        if guess not in [action for action in view["legal_actions"] if action["type"] == "guess"]:
            raise IllegalAction(N_("not a guess this seat can make"))
        chances = every_guess(view)
        return chances[guess_of(guess)], max(chances.values())

    def answer(self, number: int, guess: dict[str, Any], day: date, score: int, solved: bool) -> dict[str, Any]:
        view = position(shipped()[number])
        chances = every_guess(view)
        ranked = sorted(chances.items(), key=lambda item: (-item[1], item[0]))

        def entry(one: Guess) -> dict[str, Any]:
            return {"guess": guess_action(view, one), "p": round(chances[one], 6)}

        share = _("codecrack daily Coda puzzle {day}: {score} %").format(day=day.isoformat(), score=score)
        return {
            "chosen": entry(guess_of(guess)),
            "best": entry(ranked[0][0]),
            "odds": [entry(one) for one, _p in ranked],
            "solved": solved,
            "score": score,
            "share": "\n".join([share, "🟩" if solved else "🟥"]),
        }


DAILY = CodaDaily()

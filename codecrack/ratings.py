"""OpenSkill ratings from arena games, kept per game in a JSON ladder file across runs.

Every seat is its own team in a free-for-all ranked by the game's places (see
:func:`codecrack.arena.placements`). An agent in several seats of one game takes the mean of
its seats' updates; a game where one agent fills every seat teaches nothing and is skipped.

>>> ladder = Ladder()
>>> game = {"names": ["hard", "easy", "easy"], "places": [1, 2, 2]}
>>> curves = ladder.rate("coda", [game])
>>> [row["name"] for row in ladder.table("coda")]
['hard', 'easy']
>>> len(curves["hard"])
2
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from statistics import fmean
from typing import Any, Literal

from openskill.models import PlackettLuce
from pydantic import BaseModel, ValidationError

MODEL = PlackettLuce()


class RatingsError(ValueError):
    """A ratings file that cannot be read as a ladder."""


class Rating(BaseModel):
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate that orders the ladder: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class LadderFile(BaseModel):
    version: Literal[1] = 1
    model: Literal["PlackettLuce"] = "PlackettLuce"
    games: dict[str, dict[str, Rating]] = {}


class Ladder:
    """Ratings per game and agent name; ``rate`` folds in games in the order given."""

    def __init__(self, data: LadderFile | None = None) -> None:
        self.data = data or LadderFile()

    @classmethod
    def load(cls, path: Path) -> Ladder:
        """The ladder in ``path``, or an empty one when the file does not exist yet."""
        if not path.exists():
            return cls()
        try:
            return cls(LadderFile.model_validate_json(path.read_bytes()))
        except (ValidationError, OSError) as error:
            raise RatingsError(f"{path} is not a codecrack ratings file: {str(error).splitlines()[0]}") from None

    def save(self, path: Path) -> None:
        """Write the ladder atomically (a crash never leaves half a file)."""
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(self.data.model_dump(), indent=1))
        os.replace(temporary, path)

    def rate(self, game: str, games: list[dict[str, Any]]) -> dict[str, list[tuple[float, float]]]:
        """Update the ratings with ``games`` (arena game summaries) and return each agent's
        curve: (mu, sigma) before the first game and after every game."""
        ratings = self.data.games.setdefault(game, {})
        names = list(dict.fromkeys(name for played in games for name in played["names"]))
        curves = {name: [_point(ratings.get(name, Rating()))] for name in names}
        for played in games:
            self._rate_one(ratings, played["names"], played["places"])
            for name in names:
                curves[name].append(_point(ratings.get(name, Rating())))
        return curves

    @staticmethod
    def _rate_one(ratings: dict[str, Rating], names: list[str], places: list[int]) -> None:
        if len(set(names)) < 2:
            return
        before = [ratings.get(name, Rating()) for name in names]
        teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
        after = MODEL.rate(teams, ranks=[float(place) for place in places])
        for name in set(names):
            seats = [seat for seat, seated in enumerate(names) if seated == name]
            ratings[name] = Rating(
                mu=fmean(after[s][0].mu for s in seats),
                sigma=fmean(after[s][0].sigma for s in seats),
                games=ratings.get(name, Rating()).games + 1,
            )

    def table(self, game: str) -> list[dict[str, Any]]:
        """The ladder of ``game``, best ordinal first."""
        rows = [
            {"name": name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal, "games": r.games}
            for name, r in self.data.games.get(game, {}).items()
        ]
        return sorted(rows, key=lambda row: (-row["ordinal"], row["name"]))

    def game_names(self) -> list[str]:
        return sorted(self.data.games)


def _point(rating: Rating) -> tuple[float, float]:
    return (rating.mu, rating.sigma)

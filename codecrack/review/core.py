"""The game-agnostic part of a post-game review: decisions, grades and the replay that feeds
one seat's views to its game's reviewer.

A reviewer sees exactly what the seat saw: the record is replayed action by action and, before
each action of the reviewed seat, the reviewer receives ``game.view(seat)`` and the action the
seat took. It never touches the game object, so a review cannot use what the seat lacked.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from ..core.errors import OptionError, TemplateError
from ..core.game import Game
from ..core.registry import game_part, new_game
from ..i18n import N_

GRADES = (N_("best"), N_("good"), N_("inaccuracy"), N_("mistake"), N_("blunder"))
TIE = 1e-9  # losses this small are ties with the best


@dataclass(frozen=True)
class Scale:
    """How a kind of decision is measured: ``unit`` and the loss at which each worse grade
    starts (good below ``good``, inaccuracy below ``inaccuracy``, mistake below ``mistake``,
    blunder from ``mistake`` on). ``higher`` says whether a bigger value is better; with
    ``share``, the loss is the part of the best value that was missed (1 - value / best), so a
    question that narrows the code 90% as much as the best one has lost 0.10."""

    unit: str
    good: float
    inaccuracy: float
    mistake: float
    higher: bool = True
    share: bool = False

    def loss(self, value: float, best: float) -> float:
        if self.share:
            return 0.0 if best <= 0 else max(0.0, 1 - value / best)
        return max(0.0, (best - value) if self.higher else (value - best))

    @property
    def limits(self) -> tuple[float, float, float]:
        return (self.good, self.inaccuracy, self.mistake)

    def grade(self, loss: float) -> str:
        if loss <= TIE:
            return "best"
        for name, limit in (("good", self.good), ("inaccuracy", self.inaccuracy), ("mistake", self.mistake)):
            if loss < limit:
                return name
        return "blunder"


CHANCE = Scale(N_("chance"), 0.05, 0.15, 0.30)  # probability points of a hit, a right decode
EXPOSURE = Scale(N_("chance"), 0.05, 0.15, 0.30, higher=False)  # onlookers' chance of naming my code
TILES = Scale(N_("tiles"), 0.15, 0.40, 0.80)  # Coda cover: tiles' worth of uncertainty
BITS = Scale(N_("bits"), 0.15, 0.35, 0.60, share=True)  # expected information, as a share of the best
SYMBOLS = Scale(N_("symbols"), 0.05, 0.15, 0.30)  # The Coding one-shot: expected symbols right
TURNS = Scale(N_("turns"), 0.10, 0.30, 0.60, higher=False)  # Alphabet Code: expected turns to finish


@dataclass(frozen=True)
class Decision:
    """One graded decision: what was done and its value, the best alternative and its value."""

    step: int  # index of the action in the record
    kind: str  # e.g. "guess", "go on", "draw", "data card", "question" (marked with N_())
    did: str
    value: float
    best: str
    best_value: float
    unit: str
    grade: str
    note: str = ""
    limits: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the scale's: where good, inaccuracy and mistake end
    share: bool = False  # the loss is the part of the best value missed (the scale's ``share``)

    @classmethod
    def judge(
        cls,
        step: int,
        kind: str,
        scale: Scale,
        did: str,
        value: float,
        best: str,
        best_value: float,
        note: str = "",
        worst: bool = False,
    ) -> Decision:
        """Grade by the loss against the best; ``worst`` forces a blunder (a choice the seat
        could know was wrong, such as naming a value already seen)."""
        loss = round(scale.loss(value, best_value), 9)
        grade = "blunder" if worst and loss > TIE else scale.grade(loss)
        if grade == "best":
            best = did  # a tie: what was done is (one of) the best
        return cls(
            step,
            kind,
            did,
            round(float(value), 4),
            best,
            round(float(best_value), 4),
            scale.unit,
            grade,
            note,
            scale.limits,
            scale.share,
        )


class Reviewer(Protocol):
    """One game's reviewer for one seat; it may remember earlier views, as the seat would."""

    def __init__(self, seat: int) -> None: ...

    def review(self, step: int, view: dict[str, Any], action: dict[str, Any]) -> list[Decision]: ...


class ReviewError(TemplateError):
    """The record cannot be reviewed (unknown game, bad seat, an action that does not replay)."""


@dataclass
class Review:
    game: str
    seat: int
    players: int
    finished: bool
    decisions: list[Decision] = field(default_factory=list)

    def tally(self) -> dict[str, int]:
        return {grade: sum(d.grade == grade for d in self.decisions) for grade in GRADES}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "players": self.players,
            "finished": self.finished,
            "tally": self.tally(),
            "decisions": [{**asdict(d), "limits": list(d.limits)} for d in self.decisions],
        }


def reviewer_for(game: str, seat: int) -> Reviewer:
    """``REVIEWER`` of the game package's ``review`` module, for ``seat``."""
    found: type[Reviewer] | None = game_part(game, "review", "REVIEWER")
    if found is None:
        raise ReviewError(N_("no reviewer for {game!r}"), game=game)
    return found(seat)


Step = tuple[int, dict[str, Any], dict[str, Any]]  # (index in the record, the seat's view, its action)


def review_steps(game: str, seat: int, steps: Iterable[Step]) -> list[Decision]:
    """Grade ``seat``'s decisions given only its views and actions, in order."""
    reviewer = reviewer_for(game, seat)
    return [decision for step, view, action in steps for decision in reviewer.review(step, view, action)]


def replayed(record: dict[str, Any]) -> tuple[Game, list[Any]]:
    """A fresh game for ``record`` and its actions (a :class:`ReviewError` if it is no record)."""
    try:
        game = new_game(record["game"], players=record["players"], seed=record["seed"], **record.get("options", {}))
        return game, list(record["actions"])
    except (KeyError, TypeError, OptionError) as error:
        raise ReviewError(N_("not a game record: {error}"), error=error) from None


def seat_steps(game: Game, actions: list[Any], seat: int) -> Iterator[Step]:
    """Replay ``actions`` on ``game``, yielding ``seat``'s view before each of its own actions."""
    for step, entry in enumerate(actions):
        try:
            actor, action = entry
            view = game.view(seat) if actor == seat else None
            game.apply(actor, action)
        except (TypeError, ValueError) as error:  # IllegalAction is a ValueError
            raise ReviewError(N_("action {step} does not replay: {error}"), step=step, error=error) from None
        if view is not None:
            yield step, view, action


def seat_decisions(record: dict[str, Any], seat: int) -> tuple[Review, list[Step]]:
    """``seat``'s review of ``record`` with no decision graded yet, and the steps to grade, in order."""
    game, actions = replayed(record)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
        raise ReviewError(N_("no seat {seat!r}: seats are 0 to {last}"), seat=seat, last=game.players - 1)
    steps = list(seat_steps(game, actions, seat))
    return Review(game.name, seat, game.players, game.over), steps


def review_record(record: dict[str, Any], seat: int) -> Review:
    """Review every decision ``seat`` took in ``record`` from that seat's own views."""
    review, steps = seat_decisions(record, seat)
    review.decisions = review_steps(review.game, seat, steps)
    return review

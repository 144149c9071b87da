"""Post-game review: every decision of one seat, valued exactly from that seat's own views and
graded "best", "good", "inaccuracy", "mistake" or "blunder" (thresholds in ``core``, the
reasoning in ``docs/review.md``).

>>> import codecrack
>>> from codecrack.agents import make_agent
>>> from codecrack.core.runner import run_game
>>> game = codecrack.new_game("coda", players=2, seed=3)
>>> _ = run_game(game, {s: make_agent("medium", "coda", seed=s) for s in (0, 1)})
>>> review = review_record(game.record(), seat=0)
>>> review.finished and all(d.grade in GRADES for d in review.decisions)
True
"""

from typing import Any

from .core import GRADES, Decision, Review, Reviewer, ReviewError, review_record, reviewer_for, seat_decisions
from .numbering import tiles_counted_from

__all__ = [
    "GRADES",
    "Decision",
    "Review",
    "ReviewError",
    "review_record",
    "review_step_for_the_page",
    "reviewer_for",
    "seat_decisions",
]


def review_step_for_the_page(
    reviewer: Reviewer, step: int, view: dict[str, Any], action: dict[str, Any]
) -> tuple[Reviewer, list[Decision]]:
    """One decision graded, its tiles counted from 1 as the table page numbers a row's; the reviewer
    comes back with what it remembered, so that a review can be made one step at a time."""
    with tiles_counted_from(1):
        return reviewer, reviewer.review(step, view, action)

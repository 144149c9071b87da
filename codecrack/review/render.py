"""A review in the terminal: one Rich table row per decision, then the tally of grades."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from .core import GRADES, Review

GRADE_STYLES = dict(zip(GRADES, ("bold green", "green", "yellow", "dark_orange", "bold red")))


def review_table(review: Review) -> Table:
    state = "finished" if review.finished else "unfinished"
    table = Table(title=f"{review.game}: review of seat {review.seat} ({review.players} players, {state} game)")
    for column in ("step", "decision", "you", "value", "best", "best value", "grade", "why"):
        table.add_column(column, overflow="fold")
    for d in review.decisions:
        style = GRADE_STYLES[d.grade]
        table.add_row(str(d.step), d.kind, d.did, f"{d.value:g} {d.unit}", d.best, f"{d.best_value:g}",
                      f"[{style}]{d.grade}[/{style}]", d.note)
    return table


def print_review(review: Review, console: Console) -> None:
    console.print(review_table(review))
    tally = ", ".join(f"[{GRADE_STYLES[g]}]{n} {g}[/{GRADE_STYLES[g]}]" for g, n in review.tally().items())
    console.print(f"{len(review.decisions)} decisions: {tally}")

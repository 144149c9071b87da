"""A review in the terminal: one Rich table row per decision, then the tally of grades, in the
current language (the decisions' kinds, units and grades are marked with ``N_()`` where made)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..i18n import N_, _, ngettext
from .core import GRADES, Decision, Review
from .numbering import seat_number

GRADE_STYLES = dict(zip(GRADES, ("bold green", "green", "yellow", "dark_orange", "bold red")))
COLUMNS = (N_("step"), N_("decision"), N_("you"), N_("value"), N_("best"), N_("best value"), N_("grade"), N_("why"))


def review_title(review: Review) -> str:
    template = (
        N_("{game}: review of seat {seat} ({players} players, finished game)")
        if review.finished
        else N_("{game}: review of seat {seat} ({players} players, unfinished game)")
    )
    return _(template).format(game=review.game, seat=seat_number(review.seat), players=review.players)


# A value in the player's terms: a chance, expected tiles or turns, or for information the share
# of the best choice's (the web page says the same, codecrack/web/static/js/review.js).
AMOUNTS = {
    "chance": N_("{percent}% chance"),
    "tiles": N_("{value} expected tiles you would win from here"),
    "symbols": N_("{value} expected symbols you would name right"),
    "turns": N_("{value} expected turns to finish"),
}
SHARES = {  # the kinds graded as a share of the best (the BITS scale)
    "question": N_("narrows the code {percent}% as much as the best question"),
    "hack card": N_("narrows the receiver's code {percent}% as much as the best card"),
}


def amount(d: Decision, value: float) -> str:
    if d.share:
        percent = round(100 * value / d.best_value) if d.best_value > 0 else 100
        return _(SHARES[d.kind]).format(percent=percent)
    if d.unit == "chance":
        return _(AMOUNTS["chance"]).format(percent=f"{value * 100:.1f}")
    template = AMOUNTS.get(d.unit)
    return _(template).format(value=f"{value:.2f}") if template else f"{value:g} {_(d.unit)}"


def review_table(review: Review) -> Table:
    table = Table(title=review_title(review))
    for column in COLUMNS:
        table.add_column(_(column), overflow="fold")
    for d in review.decisions:
        table.add_row(
            str(d.step),
            _(d.kind),
            d.did,
            amount(d, d.value),
            d.best,
            amount(d, d.best_value),
            Text(_(d.grade), style=GRADE_STYLES[d.grade]),
            d.note,
        )
    return table


def print_review(review: Review, console: Console) -> None:
    console.print(review_table(review))
    count = len(review.decisions)
    tally = Text(ngettext("{count} decision: ", "{count} decisions: ", count).format(count=count))
    for position, (grade, graded) in enumerate(review.tally().items()):
        tally.append(", " if position else "")
        tally.append(f"{graded} {_(grade)}", style=GRADE_STYLES[grade])
    console.print(tally)

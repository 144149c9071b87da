"""Ratings: one OpenSkill rating (PlacketLuce, as the arena's ladder) per account and game, and
per player count for a game rated per count (``Game.rated_per_count``: Coda).

A table is *rated* when its options are one of its game's presets (the first seat drawn at random),
every AI seat is a tier with an anchor, and, at the end, every human seat is held by a different
account. The AI tiers are fixed anchors: their ratings were measured in the arena at each player
count (``codecrack arena --players N ... --ratings``) and are kept in each game's package
(``ratings-N.json``); a game uses its count's anchors and moves the people's ratings only. A seat the takeover AI was playing at the end counts last.

A finished game is rated once: the ``rated_games`` row of its table is the unique key, written in
the same transaction as the ratings, so two instances that both see the end cannot both rate it.
The update runs after the game ended, in its own write, never on an action's path.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ...arena import placements
from ...core.registry import game_class
from ...ratings import Ladder, Rating
from .. import messages
from ..store import TableRow, now, players, rated_games, rating_changes, ratings, seat_tokens

log = logging.getLogger("codecrack.web")
MODEL = PlackettLuce()
PROVISIONAL_GAMES = 10  # a rating is shown with "?" until this many rated games
TRIES = 3  # a rating write that lost a race is tried again (the next try sees the winner)
SCALE = 60  # a rating is shown as round(mu * SCALE): a newcomer's 25 is 1500


def shown(mu: float) -> int:
    """A rating as people read it.

    >>> shown(25.0)
    1500
    """
    return round(mu * SCALE)


@functools.cache
def anchors(game: str, players: int) -> dict[str, Rating]:
    """The AI tiers' ratings for ``game`` at ``players`` seats, from the ``ratings-N.json`` next to
    its rules (a ladder written by ``codecrack arena --players N ... --ratings``): N the largest count
    measured up to ``players`` (else the smallest measured); none when the game has no such file."""
    folder = Path(sys.modules[game_class(game).__module__].__file__ or "").parent
    measured = sorted(
        int(n) for n in (p.stem.removeprefix("ratings-") for p in folder.glob("ratings-*.json")) if n.isdigit()
    )
    if not measured:
        return {}
    count = max((n for n in measured if n <= players), default=measured[0])
    return dict(Ladder.load(folder / f"ratings-{count}.json").data.games.get(game, {}))


@functools.cache
def _rated_options(game: str) -> tuple[str, ...]:
    cls = game_class(game)
    return tuple(json.dumps(cls.Options(**p.options).model_dump(mode="json"), sort_keys=True) for p in cls.presets)


def rated_count(game: str, players: int) -> int:
    """The player count whose rating a game of ``players`` moves: its own for a game rated per
    count (Coda), else 0 (one rating for every count)."""
    return players if game_class(game).rated_per_count else 0


def rated_setup(row: TableRow) -> bool:
    """Whether a table's game, options and AI seats make it a rated one (if its players are accounts)."""
    options = json.dumps(game_class(row.game).Options(**row.options).model_dump(mode="json"), sort_keys=True)
    tiers = anchors(row.game, row.players)
    return options in _rated_options(row.game) and all(
        seat["kind"] == "human" or seat.get("agent") in tiers for seat in row.seats
    )


def places(result: dict[str, Any], count: int, left: set[int]) -> list[int]:
    """Each seat's place (1 is best, ties share): the game's, except that a seat the takeover AI
    was playing at the end (``left``) comes after every other.

    >>> places({"winners": [1], "scores": None}, 3, {1})
    [1, 3, 1]
    >>> places({"winners": [0], "scores": [5, 3, 4]}, 3, {0})
    [3, 2, 1]
    """
    ranked = placements({**result, "winners": [s for s in result["winners"] if s not in left]}, count)
    stayed = [seat for seat in range(count) if seat not in left]
    return [count if s in left else 1 + sum(ranked[o] < ranked[s] for o in stayed) for s in range(count)]


@dataclass(frozen=True)
class Change:
    seat: int
    player_id: int | None
    agent: str | None
    place: int
    before: Rating
    after: Rating


# -- the write step (run by the hub's writer) ---------------------------------------------------
def rate_table(db: Connection, row: TableRow, seat_places: list[int]) -> list[Change]:
    """Rate the finished table ``row`` once: nothing (an empty list) if a human seat is not an
    account's, one account holds two seats, or the table was rated already; raises
    :class:`IntegrityError` if another instance rates it at the same moment."""
    holders = dict(
        db.execute(
            select(seat_tokens.c.seat, players.c.id)
            .join(players, players.c.id == seat_tokens.c.player_id)
            .where(seat_tokens.c.table_code == row.code, players.c.handle_key.is_not(None))
        ).all()
    )
    humans = [seat for seat, plan in enumerate(row.seats) if plan["kind"] == "human"]
    if not humans or any(seat not in holders for seat in humans) or len(set(holders.values())) < len(holders):
        return []
    if db.execute(select(rated_games.c.table_code).where(rated_games.c.table_code == row.code)).first():
        return []
    at, count = now(), rated_count(row.game, row.players)
    db.execute(  # the unique key
        insert(rated_games).values(table_code=row.code, game=row.game, players=row.players, rated_at=at)
    )
    rating_of = (ratings.c.game == row.game) & (ratings.c.players == count)
    stored = {
        r.player_id: r
        for r in db.execute(
            select(ratings)
            .where(rating_of, ratings.c.player_id.in_(holders.values()))
            .order_by(ratings.c.player_id)  # one order of locks for every table: no deadlock
            .with_for_update()  # PostgreSQL: another table's update of the same player waits
        )
    }
    tiers = anchors(row.game, row.players)
    before = [
        Rating(mu=stored[holders[s]].mu, sigma=stored[holders[s]].sigma, games=stored[holders[s]].games)
        if holders.get(s) in stored
        else Rating()
        if s in holders
        else tiers[row.seats[s]["agent"]]
        for s in range(row.players)
    ]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = MODEL.rate(teams, ranks=[float(place) for place in seat_places])
    changes = []
    for seat, old in enumerate(before):
        player_id = holders.get(seat)
        new = Rating(mu=rated[seat][0].mu, sigma=rated[seat][0].sigma, games=old.games + 1) if player_id else old
        changes.append(
            Change(seat, player_id, None if player_id else row.seats[seat]["agent"], seat_places[seat], old, new)
        )
        if player_id is None:
            continue
        won = int(seat_places[seat] == 1)
        values = {"mu": new.mu, "sigma": new.sigma, "games": new.games, "played_at": at}
        if player_id in stored:
            db.execute(
                update(ratings)
                .where(ratings.c.player_id == player_id, rating_of)
                .values(**values, wins=ratings.c.wins + won)
            )
        else:
            db.execute(insert(ratings).values(player_id=player_id, game=row.game, players=count, wins=won, **values))
    db.execute(
        insert(rating_changes),
        [
            {
                "table_code": row.code,
                "seat": c.seat,
                "player_id": c.player_id,
                "agent": c.agent,
                "place": c.place,
                "mu_before": c.before.mu,
                "sigma_before": c.before.sigma,
                "mu_after": c.after.mu,
                "sigma_after": c.after.sigma,
                "games": c.after.games,
            }
            for c in changes
        ],
    )
    return changes


def change_json(seat: int, mu_before: float, mu_after: float, games: int) -> messages.RatingChange:
    """One seat's change as the end screen shows it (``games``: rated games after this one)."""
    return {
        "seat": seat,
        "before": shown(mu_before),
        "after": shown(mu_after),
        "provisional": games < PROVISIONAL_GAMES,
    }


def changes_json(changes: list[Change]) -> list[messages.RatingChange]:
    return [change_json(c.seat, c.before.mu, c.after.mu, c.after.games) for c in changes if c.player_id is not None]


def stored_changes(db: Connection, code: str) -> list[messages.RatingChange]:
    """The people's changes of table ``code`` as stored (none if it was not rated)."""
    query = (
        select(rating_changes)
        .where(rating_changes.c.table_code == code, rating_changes.c.player_id.is_not(None))
        .order_by(rating_changes.c.seat)
    )
    return [change_json(r.seat, r.mu_before, r.mu_after, r.games) for r in db.execute(query)]


class Rater:
    """Rates each finished table of a hub once, after its end (a hook on ``hub.events.on_ended``)."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.tasks: set[asyncio.Task] = set()
        hub.events.on_ended.append(self.ended)

    def ended(self, table: Any) -> None:
        # the instance that drives the table knows which seats the takeover AI was playing
        if table.driving and not table.anonymous and rated_setup(table.row):  # no player there to rate
            task = asyncio.get_running_loop().create_task(self.rate(table))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def rate(self, table: Any) -> list[Change]:
        seat_places = places(table.result, table.row.players, set(table.taken_over))
        for _ in range(TRIES):
            try:
                changes = await self.hub.writer.write(rate_table, table.row, seat_places)
                break
            except IntegrityError:  # another instance rated this table, or a new player's first game, meanwhile
                continue
        else:
            log.error("table %s could not be rated", table.code)
            return []
        if changes:
            table.broadcast(messages.rated(changes_json(changes)))
        return changes

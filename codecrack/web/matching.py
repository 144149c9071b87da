"""Quick match: players waiting for a game are seated together at a new table.

The queue is the ``match_queue`` table of the database every instance shares: one entry per player
(its primary key), so a player waits in one queue at a time and is seated once. Each call of a
waiting player (the page calls every couple of seconds) marks the entry seen and tries to seat the
longest-waiting seen entries of its queue (game, preset and player count) whose ratings are close (the
range widens with the wait): in one transaction that locks them
(``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two instances seating at once take
disjoint players; SQLite has one writer and one instance), stores the table and its tokens and
writes each player's seat into their entry. The player's next call takes the seat and ends the
entry. An entry not seen for ``match_absent`` seconds (the page was closed) is never seated and
is deleted by the next call of its queue; a seat given but never taken stays the player's
(listed by ``GET /api/me/seats``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from .players.ratings import anchors, rated_count
from .store import TableRow, add_table, add_token, match_queue, now, ratings

NEWCOMER_MU = 25.0  # a player without a rating in the game (OpenSkill's starting mu, shown as 1500)
RATING_WIDTH = 2.0  # mu apart (120 shown points) two players may be at once ...
RATING_WIDENING = 0.1  # ... and this much more per second the longest-waiting of them has waited


@dataclass(frozen=True)
class Seated:
    """The seat quick match gave a player."""

    code: str
    seat: int
    token: str


def wait_in_queue(
    db: Connection, player_id: int, name: str, game: str, preset: str, players: int, absent_before: datetime
) -> Seated | datetime:
    """The seat given to the player, if any (their entry ends; the seat stays theirs); else they
    wait in the queue of ``game``'s ``preset`` for ``players`` (seen now; a different queue
    replaces the one they waited in) since the moment returned. The queue forgets the players not seen since
    ``absent_before``."""
    seated = db.execute(
        select(match_queue.c.table_code, match_queue.c.seat, match_queue.c.token).where(
            match_queue.c.player_id == player_id, match_queue.c.table_code.is_not(None)
        )
    ).first()
    if seated is not None:
        db.execute(delete(match_queue).where(match_queue.c.player_id == player_id))
        return Seated(*seated)
    at = now()
    db.execute(
        delete(match_queue).where(
            match_queue.c.table_code.is_(None),
            or_(
                match_queue.c.seen_at < absent_before,
                and_(
                    match_queue.c.player_id == player_id,
                    or_(match_queue.c.game != game, match_queue.c.preset != preset, match_queue.c.players != players),
                ),
            ),
        )
    )
    seen = db.execute(
        update(match_queue).where(match_queue.c.player_id == player_id).values(seen_at=at, name=name)
    ).rowcount
    if not seen:
        db.execute(
            insert(match_queue).values(
                player_id=player_id,
                game=game,
                preset=preset,
                players=players,
                name=name,
                joined_at=at,
                seen_at=at,
            )
        )
    return db.execute(select(match_queue.c.joined_at).where(match_queue.c.player_id == player_id)).scalar_one()


def leave_queue(db: Connection, player_id: int) -> None:
    """The player stops waiting (a seat already given stays theirs and is told at the next call)."""
    db.execute(delete(match_queue).where(match_queue.c.player_id == player_id, match_queue.c.table_code.is_(None)))


def waiting(db: Connection, game: str, preset: str, players: int, seen_since: datetime) -> int:
    """How many players wait in the queue, seen since ``seen_since``."""
    return db.execute(
        select(func.count()).where(*_waiting_in(game, preset, players, seen_since)).select_from(match_queue)
    ).scalar_one()


def seat_players(db: Connection, row: TableRow, preset: str, seen_since: datetime) -> dict[str, tuple[int, str]] | None:
    """Seat ``row.players`` waiting players of ``row``'s queue (its game, ``preset`` and player
    count) at the new table ``row`` (stored with
    their tokens, each linked to its player): the longest-waiting player whose rating is close
    enough to others' (:func:`near`), with the closest of them; ``None`` (nothing stored) when no
    such group is free. The entries read are locked until the transaction ends; those another
    transaction holds are skipped."""
    found = db.execute(
        select(match_queue.c.player_id, match_queue.c.name, match_queue.c.joined_at, ratings.c.mu)
        .outerjoin(
            ratings,
            (ratings.c.player_id == match_queue.c.player_id)
            & (ratings.c.game == match_queue.c.game)
            & (ratings.c.players == rated_count(row.game, row.players)),
        )
        .where(*_waiting_in(row.game, preset, row.players, seen_since))
        .order_by(match_queue.c.joined_at, match_queue.c.player_id)
        .with_for_update(of=match_queue, skip_locked=True)
    ).all()
    group = next((group for first in found if len(group := near(first, found, row.players)) == row.players), None)
    if group is None:
        return None
    add_table(db, row)
    tokens = {}
    for seat, (player_id, name, *_) in enumerate(group):
        token = secrets.token_urlsafe(24)
        add_token(db, row.code, seat, token, name, player_id)
        db.execute(
            update(match_queue)
            .where(match_queue.c.player_id == player_id)
            .values(table_code=row.code, seat=seat, token=token)
        )
        tokens[token] = (seat, name)
    return tokens


def near(first: Any, waiting: Sequence[Any], count: int) -> list[Any]:
    """``first`` and up to ``count - 1`` other waiting players whose rating (mu; a newcomer's
    without one) is within ``RATING_WIDTH`` of theirs, plus ``RATING_WIDENING`` per second
    ``first`` has waited: the closest first."""
    joined = first.joined_at if first.joined_at.tzinfo else first.joined_at.replace(tzinfo=UTC)
    width = RATING_WIDTH + RATING_WIDENING * (now() - joined).total_seconds()
    mu = first.mu if first.mu is not None else NEWCOMER_MU
    others = [
        (abs((other.mu if other.mu is not None else NEWCOMER_MU) - mu), index, other)
        for index, other in enumerate(waiting)
        if other is not first
    ]
    return [first] + [other for gap, _, other in sorted(others) if gap <= width][: count - 1]


def tier_near(db: Connection, player_id: int, game: str, players: int) -> str | None:
    """The AI tier whose fixed rating is closest to the player's in ``game`` of ``players`` (``None``
    when the game's tiers have none)."""
    mu = db.execute(
        select(ratings.c.mu).where(
            ratings.c.player_id == player_id,
            ratings.c.game == game,
            ratings.c.players == rated_count(game, players),
        )
    ).scalar()
    mu = NEWCOMER_MU if mu is None else mu
    tiers = anchors(game, players)
    return min(tiers, key=lambda tier: (abs(tiers[tier].mu - mu), tier)) if tiers else None


def _waiting_in(game: str, preset: str, players: int, seen_since: datetime) -> list[Any]:
    return [
        match_queue.c.game == game,
        match_queue.c.preset == preset,
        match_queue.c.players == players,
        match_queue.c.table_code.is_(None),
        match_queue.c.seen_at >= seen_since,
    ]


def absent_before(seconds: float) -> datetime:
    return now() - timedelta(seconds=seconds)

"""Quick match: players waiting for a game are seated together at a new table.

The queue is the ``match_queue`` table of the database every instance shares: one entry per player
(its primary key), so a player waits in one queue at a time and is seated once. Each call of a
waiting player (the page calls every couple of seconds) marks the entry seen and tries to seat the
oldest seen entries of its queue (game and player count): in one transaction that locks them
(``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two instances seating at once take
disjoint players; SQLite has one writer and one instance), stores the table and its tokens and
writes each player's seat into their entry. The player's next call takes the seat and ends the
entry. An entry not seen for ``match_absent`` seconds (the page was closed) is never seated and
is deleted by the next call of its queue; a seat given but never taken stays the player's
(listed by ``GET /api/me/seats``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from .store import TableRow, add_table, add_token, match_queue, now


@dataclass(frozen=True)
class Seated:
    """The seat quick match gave a player."""

    code: str
    seat: int
    token: str


def wait_in_queue(
    db: Connection, player_id: int, name: str, game: str, players: int, absent_before: datetime
) -> Seated | datetime:
    """The seat given to the player, if any (their entry ends; the seat stays theirs); else they
    wait in the queue of ``game`` for ``players`` (seen now; a different queue replaces the one
    they waited in) since the moment returned. The queue forgets the players not seen since
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
                    or_(match_queue.c.game != game, match_queue.c.players != players),
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
                player_id=player_id, game=game, players=players, name=name, joined_at=at, seen_at=at
            )
        )
    return db.execute(select(match_queue.c.joined_at).where(match_queue.c.player_id == player_id)).scalar_one()


def leave_queue(db: Connection, player_id: int) -> None:
    """The player stops waiting (a seat already given stays theirs and is told at the next call)."""
    db.execute(delete(match_queue).where(match_queue.c.player_id == player_id, match_queue.c.table_code.is_(None)))


def waiting(db: Connection, game: str, players: int, seen_since: datetime) -> int:
    """How many players wait in the queue, seen since ``seen_since``."""
    return db.execute(
        select(func.count()).where(*_waiting_in(game, players, seen_since)).select_from(match_queue)
    ).scalar_one()


def seat_players(db: Connection, row: TableRow, seen_since: datetime) -> dict[str, tuple[int, str]] | None:
    """Seat the ``row.players`` longest-waiting players of ``row``'s queue at the new table ``row``
    (stored with their tokens, each linked to its player); ``None`` (nothing stored) when fewer
    are waiting and free. The entries read are locked until the transaction ends; those another
    transaction holds are skipped."""
    found = db.execute(
        select(match_queue.c.player_id, match_queue.c.name)
        .where(*_waiting_in(row.game, row.players, seen_since))
        .order_by(match_queue.c.joined_at, match_queue.c.player_id)
        .limit(row.players)
        .with_for_update(skip_locked=True)
    ).all()
    if len(found) < row.players:
        return None
    add_table(db, row)
    tokens = {}
    for seat, (player_id, name) in enumerate(found):
        token = secrets.token_urlsafe(24)
        add_token(db, row.code, seat, token, name, player_id)
        db.execute(
            update(match_queue)
            .where(match_queue.c.player_id == player_id)
            .values(table_code=row.code, seat=seat, token=token)
        )
        tokens[token] = (seat, name)
    return tokens


def _waiting_in(game: str, players: int, seen_since: datetime) -> list[Any]:
    return [
        match_queue.c.game == game,
        match_queue.c.players == players,
        match_queue.c.table_code.is_(None),
        match_queue.c.seen_at >= seen_since,
    ]


def absent_before(seconds: float) -> datetime:
    return now() - timedelta(seconds=seconds)

"""Ratings over HTTP: a finished table's changes (``GET /api/tables/{code}/ratings``, for an end
screen opened after the ``rated`` message went out) and each game's leaderboard
(``GET /api/leaderboards/{game}[?players=N]``: the top 100 accounts with at least 10 rated games
that played one in the last 30 days, and the viewer's own rank; a game rated per player count, as
Coda, has one leaderboard per count)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query
from pydantic import BaseModel, Field
from sqlalchemy import bindparam, func, literal_column, select
from sqlalchemy.engine import Connection

from ...core.registry import GAMES, game_class
from ...i18n import _
from ..schema import ERRORS, RatingChange
from ..store import now, players, ratings
from .identity import Player, current_player, read
from .ratings import PROVISIONAL_GAMES, shown, stored_changes

TOP = 100  # a leaderboard's length
ACTIVE_DAYS = 30  # a leaderboard lists the accounts that played a rated game this recently


class Ranked(BaseModel):
    rank: int | None = Field(description="null: the viewer's own rating, not listed (too few games, or none lately)")
    handle: str
    rating: int
    provisional: bool
    games: int
    wins: int


class Leaderboard(BaseModel):
    game: str
    players: int | None = Field(
        description="the player count of this board; null: the game's one board for every count"
    )
    counts: list[int] = Field(description="the player counts with a board of their own (empty: one board for all)")
    top: list[Ranked]
    you: Ranked | None = Field(description="the viewer's own entry on this board: its rank, or its rating unranked")


def leaderboard(db: Connection, game: str, count: int, player_id: int | None) -> dict[str, Any]:
    """The board of ``game``'s ratings at ``count`` players (0: the game's one board): its top in
    one statement, which walks the index of the listed ratings (``ix_ratings_listed``, the rule of
    10 games written out so that the planners see the index's own condition) in its order; the
    viewer's entry and rank in one more. Both statements are built once (:func:`statements`)."""
    values = {"game": game, "count": count, "since": now() - timedelta(days=ACTIVE_DAYS), "player_id": player_id}
    top_statement, mine_statement = statements(TOP)
    rows = db.execute(top_statement, values).all()
    top = [ranked(rank, row) for rank, row in enumerate(rows, 1)]
    you = next((entry for entry, row in zip(top, rows) if row.player_id == player_id), None)
    if you is None and player_id is not None:  # listed below the top, or not listed: its rating all the same
        mine = db.execute(mine_statement, values).first()
        if mine is not None:
            you = ranked(mine.above + 1 if mine.listed else None, mine)
    return {"game": game, "players": count or None, "counts": counts(game), "top": top, "you": you}


@lru_cache(maxsize=4)
def statements(length: int) -> tuple[Any, Any]:
    """A board's top ``length`` and the viewer's entry with its rank, their values bound as
    ``game``, ``count``, ``since`` (the oldest listed rated game) and ``player_id``."""
    game: Any = bindparam("game")
    count: Any = bindparam("count")
    since: Any = bindparam("since")
    board, active = on_board(ratings, game, count), listed(ratings, since)
    entries = select(
        players.c.handle, ratings.c.mu, ratings.c.games, ratings.c.wins, ratings.c.player_id, active.label("listed")
    ).join(players, players.c.id == ratings.c.player_id)
    top = entries.where(board, active).order_by(ratings.c.mu.desc(), ratings.c.player_id).limit(length)
    ahead = ratings.alias("ahead")
    listed_above = (
        select(func.count())
        .select_from(ahead)
        .where(on_board(ahead, game, count), listed(ahead, since), ahead.c.mu > ratings.c.mu)
        .scalar_subquery()
    )
    mine = entries.add_columns(listed_above.label("above")).where(board, ratings.c.player_id == bindparam("player_id"))
    return top, mine


def on_board(rated: Any, game: Any, count: Any) -> Any:
    """The condition for ``rated``'s ratings (the table or an alias) of ``game`` at ``count`` players."""
    return (rated.c.game == game) & (rated.c.players == count)


def listed(rated: Any, since: Any) -> Any:
    """The condition for a listed rating: rated games enough (the number written out, as the
    index's own condition has it) and one played ``since``."""
    return (rated.c.games >= literal_column(str(PROVISIONAL_GAMES))) & (rated.c.played_at >= since)


def counts(game: str) -> list[int]:
    """The player counts of ``game`` that have a leaderboard of their own."""
    cls = game_class(game)
    return list(range(cls.min_players, cls.max_players + 1)) if cls.rated_per_count else []


def ranked(rank: int | None, row: Any) -> dict[str, Any]:
    return {
        "rank": rank,
        "handle": row.handle,
        "rating": shown(row.mu),
        "provisional": row.games < PROVISIONAL_GAMES,
        "games": row.games,
        "wins": row.wins,
    }


def rating_router(hub: Any) -> APIRouter:
    router = APIRouter()

    @router.get("/api/tables/{code}/ratings", responses=ERRORS, response_model=list[RatingChange])
    async def table_ratings(code: str) -> Any:
        """The people's rating changes of a finished rated table (empty until it is rated)."""
        return await asyncio.to_thread(read, hub.engine, stored_changes, code.upper())

    @router.get("/api/leaderboards/{game}", responses=ERRORS, response_model=Leaderboard)
    async def board(
        game: str,
        count: int | None = Query(
            None, alias="players", ge=1, le=64, description="a player count (a game rated per count)"
        ),
        player: Player | None = Depends(current_player),
    ) -> Any:
        if game not in GAMES:
            raise HTTPException(
                status_code=404,
                detail=_("unknown game {name!r}; valid games: {games}").format(
                    name=game, games=", ".join(sorted(GAMES))
                ),
            )
        boards = counts(game)
        if count is not None and count not in boards:
            raise HTTPException(
                status_code=400,
                detail=_("players: {game} has leaderboards for {counts} players").format(
                    game=game, counts=", ".join(map(str, boards))
                )
                if boards
                else _("players: {game} has one leaderboard for every player count").format(game=game),
            )
        count = count or (boards[0] if boards else 0)
        return await asyncio.to_thread(read, hub.engine, leaderboard, game, count, player and player.id)

    return router

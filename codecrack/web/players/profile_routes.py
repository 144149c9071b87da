"""An account's public profile (``GET /api/players/{handle}``: per game its rating, the rating's
course, games played and won, results against each AI tier, and the latest games) and its history
(``GET /api/players/{handle}/games``: every finished game, a page at a time, filtered by game,
result and opponents).

Only finished games are shown: an unfinished one would tell more than its public table does
(whose seat this account holds, while it plays).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from sqlalchemy import Text, and_, bindparam, case, cast, literal, literal_column, null, or_, select, true, union_all
from sqlalchemy.engine import Connection

from ...core.registry import GAMES, game_class
from ...i18n import _
from ..schema import ERRORS
from ..store import player_tallies, players, rated_games, rating_changes, ratings, seat_tokens, tables
from .accounts import handle_key
from .identity import aware, read
from .ratings import PROVISIONAL_GAMES, SCALE, anchors, shown

PAGE = 20  # games per history page
PAGE_FILE = Path(__file__).parents[1] / "static" / "index.html"  # the front end's one page
RECENT = 10  # games on the profile
COURSE = 50  # rating changes per game on the profile's chart
Result = Literal["won", "lost"]
Opponents = Literal["ai", "people", "mixed"]


class Opponent(BaseModel):
    seat: int
    name: str
    agent: str | None = Field(description="the AI tier of an AI seat; null for a person")


class PlayedGame(BaseModel):
    code: str
    game: str
    seat: int
    finished_at: str
    won: bool
    opponents: list[Opponent]
    rated: bool
    before: int | None = Field(description="the shown rating before this rated game")
    after: int | None


class GameRating(BaseModel):
    game: str
    players: int | None = Field(description="the player count of this rating; null: every count of the game")
    rating: int
    uncertainty: int = Field(description="the shown rating's one-sigma band (60 x sigma)")
    provisional: bool
    games: int
    wins: int
    course: list[int] = Field(description="the shown rating after each of the latest 50 rated games, oldest first")


class TierResult(BaseModel):
    game: str
    tier: str
    rating: int | None = Field(
        description="the tier's fixed rating in a two-player game, measured in the arena (null: none)"
    )
    played: int
    won: int


class Profile(BaseModel):
    handle: str
    name: str
    ratings: list[GameRating]
    against_ai: list[TierResult]
    played: int = Field(description="finished games")
    recent: list[PlayedGame]


class History(BaseModel):
    handle: str
    page: int
    more: bool = Field(description="an older page follows")
    games: list[PlayedGame]


def seats_at_most() -> int:
    """The most seats any game has: a table's seats and winners are read by index up to it."""
    return max(game_class(name).max_players for name in GAMES)


def ai_seats() -> Any:
    """How many of a table's seats an AI tier plays, in SQL (a seat past the last one is NULL)."""
    agents = (tables.c.seats[(index, "agent")].as_string() for index in range(seats_at_most()))
    return sum(case((agent.is_not(None), 1), else_=0) for agent in agents)


def won_by_seat() -> Any:
    """1 if the player's seat is one of the table's winners, else 0, in SQL (a winner past the
    list's end is NULL: ``case`` makes that a 0)."""
    winners = (tables.c.result[("winners", index)].as_integer() for index in range(seats_at_most()))
    return case((or_(*(winner == seat_tokens.c.seat for winner in winners)), 1), else_=0)


OPPONENTS = {  # each filter of the history, in SQL (the player's own seat is a person's)
    "ai": lambda: ai_seats() == tables.c.players - 1,
    "people": lambda: ai_seats() == 0,
    "mixed": lambda: and_(ai_seats() > 0, ai_seats() < tables.c.players - 1),
}


def finished_games(player_id: Any, game: Any = None) -> Any:
    """The condition for the player's finished games (a join of its seats and their tables)."""
    found = and_(seat_tokens.c.player_id == player_id, seat_tokens.c.finished_at.is_not(None))
    return found if game is None else and_(found, tables.c.game == game)


def finished_rows(db: Connection, where: Any, offset: int, limit: int) -> list[Any]:
    """A page of the finished games ``where`` selects, the latest first: each one's table, the
    player's seat, its rating change and every seat's name (``names``: seat -> name), read in one
    statement (the page, in the index's order, joined to its tables' seats)."""
    return shown_page(db.execute(page_with_names(where, offset, limit)).all())


def page_with_names(where: Any, offset: Any, limit: Any, key: Any = None) -> Any:
    """The query of :func:`finished_rows`: a row for each seat of each game of the page. With the
    handle ``key`` of an account, the account's id and handle come first on every row, and an
    account without a game on the page still has a row (its game's columns null)."""
    page = (
        select(
            tables.c.code,
            tables.c.game,
            tables.c.seats,
            tables.c.result,
            seat_tokens.c.finished_at,
            seat_tokens.c.seat,
            rating_changes.c.mu_before,
            rating_changes.c.mu_after,
        )
        .join(tables, tables.c.code == seat_tokens.c.table_code)
        .outerjoin(
            rating_changes,
            and_(rating_changes.c.table_code == tables.c.code, rating_changes.c.seat == seat_tokens.c.seat),
        )
        .where(where)
        .order_by(seat_tokens.c.finished_at.desc(), seat_tokens.c.table_code.desc())  # the index's order
        .offset(offset)
        .limit(limit)
        .subquery("page")
    )
    named = seat_tokens.alias("named")
    columns: list[Any] = [
        *(page.c[name] for name in GAME_COLUMNS if name not in ("seats", "result")),
        *(cast(page.c[name], Text).label(name) for name in ("seats", "result")),  # decoded once a game, not a seat
        named.c.seat.label("named_seat"),
        named.c.name.label("named"),
    ]
    in_order = (page.c.finished_at.desc(), page.c.code.desc(), named.c.seat)
    if key is None:
        joined = page.outerjoin(named, named.c.table_code == page.c.code)
        return select(*columns).select_from(joined).order_by(*in_order)
    joined = players.outerjoin(page, true()).outerjoin(named, named.c.table_code == page.c.code)
    account = (players.c.id.label("player_id"), players.c.handle.label("handle"))
    return select(*account, *columns).select_from(joined).where(players.c.handle_key == key).order_by(*in_order)


def shown_page(rows: Sequence[Any]) -> list[Any]:
    """The games of :func:`page_with_names`' rows, in their order, each with its seats' names (a
    game's JSON columns come as text on each of its rows: decoded on its first)."""
    games: dict[str, Any] = {}
    for row in rows:
        if row.code is None:  # an account without a game on this page
            continue
        game = games.get(row.code)
        if game is None:
            game = games[row.code] = SimpleNamespace(**{k: getattr(row, k) for k in GAME_COLUMNS}, names={})
            game.seats = json.loads(row.seats)
            game.result = None if row.result is None else json.loads(row.result)
        game.names[row.named_seat] = row.named
    return list(games.values())


GAME_COLUMNS = ("code", "game", "seats", "result", "finished_at", "seat", "mu_before", "mu_after")


def tier_rating(game: str, tier: str) -> int | None:
    """The AI tier's fixed rating as shown: its anchor in the game's smallest count (one player
    against one AI, the commonest game against a tier), kept with the game's package."""
    anchor = anchors(game, game_class(game).min_players).get(tier) if game in GAMES else None
    return shown(anchor.mu) if anchor else None


def described(rows: list[Any]) -> list[dict[str, Any]]:
    """The games of ``rows`` (:func:`finished_rows`) as shown, with their opponents' names."""
    return [played(row, row.names) for row in rows]


def won(row: Any) -> bool:
    return row.seat in (row.result or {}).get("winners", [])


def played(row: Any, names: dict[int, str]) -> dict[str, Any]:
    opponents = [
        {
            "seat": seat,
            "name": names.get(seat) or plan.get("name") or f"Seat {seat + 1}",
            "agent": plan.get("agent"),
        }
        for seat, plan in enumerate(row.seats)
        if seat != row.seat
    ]
    rated = row.mu_before is not None
    return {
        "code": row.code,
        "game": row.game,
        "seat": row.seat,
        "finished_at": aware(row.finished_at).isoformat(),
        "won": won(row),
        "opponents": opponents,
        "rated": rated,
        "before": shown(row.mu_before) if rated else None,
        "after": shown(row.mu_after) if rated else None,
    }


def profile(db: Connection, handle: str) -> dict[str, Any] | None:
    """The account's profile in three statements: the account with its tallies and ratings, every
    rating's course, and its latest games with their seats' names. Each statement is built once
    (values bound as parameters): building them took most of a request's CPU (profile 10 ms)."""
    found = db.execute(account_statement(), {"key": handle_key(handle)}).all()
    if not found:
        return None
    counted = [row for row in found if row.tier is not None]  # kept as each game ended: no game read to count them
    rated = [
        SimpleNamespace(game=row.game, players=row.seats, mu=row.mu, sigma=row.sigma, games=row.played, wins=row.won)
        for row in found
        if row.sigma is not None
    ]
    player_id = found[0].id
    return {
        "handle": found[0].handle,
        "name": found[0].name,
        "ratings": rated_list(db, player_id, rated),
        "against_ai": [
            {
                "game": row.game,
                "tier": row.tier,
                "rating": tier_rating(row.game, row.tier),
                "played": row.played,
                "won": row.won,
            }
            for row in counted
            if row.tier
        ],
        "played": sum(row.played for row in counted if not row.tier),
        "recent": described(shown_page(db.execute(recent_statement(), {"player_id": player_id}).all())),
    }


@cache
def account_statement() -> Any:
    """:func:`account_with_counts`, the handle's key bound as ``key``."""
    return account_with_counts(bindparam("key"))


@cache
def recent_statement() -> Any:
    """The latest games of the player bound as ``player_id``, with their seats' names."""
    return page_with_names(finished_games(bindparam("player_id")), 0, RECENT)


def account_with_counts(key: Any) -> Any:
    """The account of the handle ``key``, a row for each of its tallies (``tier`` not null) and for
    each of its ratings (``sigma`` not null; ``seats``: its player count), in one statement: each
    kind by its game, then its tier or count; an account with neither has one row of its own."""
    account = (players.c.id, players.c.handle, players.c.name)
    counts = select(
        *account,
        player_tallies.c.game,
        player_tallies.c.tier,
        null().label("seats"),
        player_tallies.c.played,
        player_tallies.c.won,
        null().label("mu"),
        null().label("sigma"),
    ).select_from(players.outerjoin(player_tallies, player_tallies.c.player_id == players.c.id))
    rated = select(
        *account,
        ratings.c.game,
        null().label("tier"),
        ratings.c.players.label("seats"),
        ratings.c.games.label("played"),
        ratings.c.wins.label("won"),
        ratings.c.mu,
        ratings.c.sigma,
    ).join(ratings, ratings.c.player_id == players.c.id)
    both = union_all(counts.where(players.c.handle_key == key), rated.where(players.c.handle_key == key))
    return both.order_by(literal_column("game"), literal_column("tier"), literal_column("seats"))


def rated_list(db: Connection, player_id: int, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """The player's ratings ``rows`` as shown, each with its course: every course read in one
    statement (one branch a rating, each its latest changes in the index's order). A branch reads
    the index's window of its own latest 50 numbers (rated games after each change) only: a Coda
    player's counts number their games each from 1, and walking down from the top read every
    other count's higher numbers too (the busiest player: 471, 247 and 50 changes)."""
    if not rows:
        return []
    values: dict[str, Any] = {"player_id": player_id}
    for index, row in enumerate(rows):
        values |= {f"game_{index}": row.game, f"count_{index}": row.players, f"top_{index}": row.games}
        values[f"low_{index}"] = row.games - COURSE + 1
    courses: list[list[tuple[int, float]]] = [[] for _ in rows]
    for found in db.execute(courses_statement(tuple(bool(row.players) for row in rows)), values):
        courses[found.rating].append((found.games, found.mu_after))
    return [rating(row, sorted(course)) for row, course in zip(rows, courses)]


@lru_cache(maxsize=64)
def courses_statement(counted: tuple[bool, ...]) -> Any:
    """The courses of as many ratings as ``counted`` has (each true: a rating of one player count),
    their values bound by index: ``game_i``, ``count_i``, ``top_i`` (its rated games) and
    ``low_i`` (the first of its latest 50), and ``player_id``."""
    branches = []
    for index, by_count in enumerate(counted):
        of_rating = rated_games.c.game == bindparam(f"game_{index}")
        if by_count:
            of_rating &= rated_games.c.players == bindparam(f"count_{index}")
        window = rating_changes.c.games.between(bindparam(f"low_{index}"), bindparam(f"top_{index}"))
        branches.append(
            select(literal(index).label("rating"), rating_changes.c.games, rating_changes.c.mu_after)
            .join(rated_games, rated_games.c.table_code == rating_changes.c.table_code)
            .where(rating_changes.c.player_id == bindparam("player_id"), window, of_rating)  # its window of the index
            .order_by(rating_changes.c.games.desc())  # the index's order
            .limit(COURSE)
            .subquery()
        )
    return union_all(*(select(branch) for branch in branches))


def rating(row: Any, course: list[tuple[int, float]]) -> dict[str, Any]:
    """One rating as shown; ``course``: its latest changes (rated games after, mu), oldest first."""
    return {
        "game": row.game,
        "players": row.players or None,
        "rating": shown(row.mu),
        "uncertainty": round(row.sigma * SCALE),
        "provisional": row.games < PROVISIONAL_GAMES,
        "games": row.games,
        "wins": row.wins,
        "course": [shown(mu) for _, mu in course],
    }


def history(
    db: Connection, handle: str, page: int, game: str | None, result: str | None, opponents: str | None
) -> dict[str, Any] | None:
    """A page of the account's history in one statement: the account, its page of games (the
    account's id read inside it by handle) and their seats' names."""
    values = {"key": handle_key(handle), "game": game, "offset": (page - 1) * PAGE, "limit": PAGE + 1}
    found = db.execute(history_statement(game is not None, result, opponents), values).all()
    if not found:
        return None
    rows = shown_page(found)
    return {"handle": found[0].handle, "page": page, "more": len(rows) > PAGE, "games": described(rows[:PAGE])}


@lru_cache(maxsize=32)
def history_statement(by_game: bool, result: str | None, opponents: str | None) -> Any:
    """The query of :func:`history` for its filters, built once: its values bound as ``key`` (the
    handle's), ``game``, ``offset`` and ``limit``."""
    key: Any = bindparam("key")
    of_account = select(players.c.id).where(players.c.handle_key == key).correlate(None).scalar_subquery()
    where = finished_games(of_account, bindparam("game") if by_game else None)
    if result is not None:
        where = and_(where, won_by_seat() == int(result == "won"))
    if opponents is not None:
        where = and_(where, OPPONENTS[opponents]())
    return page_with_names(where, bindparam("offset"), bindparam("limit"), key)


def profile_router(hub: Any) -> APIRouter:
    router = APIRouter()

    def no_player(handle: str) -> HTTPException:
        return HTTPException(status_code=404, detail=_("no player '{handle}'").format(handle=handle))

    @router.get("/u/{handle}", include_in_schema=False)
    @router.get("/u/{handle}/games", include_in_schema=False)
    @router.get("/leaderboard/{game}", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(PAGE_FILE)

    @router.get("/api/players/{handle}", responses=ERRORS, response_model=Profile)
    async def show(handle: str) -> Any:
        found = await asyncio.to_thread(read, hub.engine, profile, handle[:64])
        if found is None:
            raise no_player(handle)
        return found

    @router.get("/api/players/{handle}/games", responses=ERRORS, response_model=History)
    async def games(
        handle: str,
        page: int = Query(1, ge=1, le=10_000),
        game: str | None = Query(None, max_length=32),
        result: Result | None = None,
        opponents: Opponents | None = None,
    ) -> Any:
        found = await asyncio.to_thread(read, hub.engine, history, handle[:64], page, game, result, opponents)
        if found is None:
            raise no_player(handle)
        return found

    return router

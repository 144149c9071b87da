"""A player's own data: its export as JSON, and the deletion of its account.

The export (:func:`export`) holds what the site keeps about the player: its name, handle and
sessions (their times, never their ids), its passkeys (ids and times), its ratings and their changes, every seat it took, with
the record of each finished game (the engine's record format: ``codecrack replay`` reads it) and
what it said there, and its finished daily puzzles. An unfinished game is listed as the public table shows it: no record (its seed
is hidden information). It is sent as it is read, a few games at a time, so a player with many games
costs the server no more memory than one with a few.

The deletion (:func:`delete_player`) keeps every game replayable and every other player's records
intact: the player's seats are named "deleted player" and no longer say who took them, what it said
there is deleted (a chat switch stays, unnamed), its sessions, passkeys, ratings, tallies of games, counted sign-in failures,
quick-match entry, daily puzzles' attempts, push subscriptions, notification e-mail and the player itself are
deleted, and its rating changes stay in the other players' games without
a name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from sqlalchemy import delete, select, tuple_, update
from sqlalchemy.engine import Connection, Engine

from ..chat import SWITCHES
from ..store import (
    actions,
    attempts_key,
    chat_lines,
    match_queue,
    notify_emails,
    now,
    passkey_challenges,
    passkeys,
    player_sessions,
    player_tallies,
    players,
    push_subscriptions,
    puzzle_attempts,
    rating_changes,
    ratings,
    seat_tokens,
    tables,
)
from .accounts import account_failures_key, clear_failures
from .passkeys import passkeys_of
from .ratings import shown

FORMAT = "codecrack-player-export-1"
DELETED = "deleted player"  # a deleted player's seats' name, in every language (it is stored)


SEATS_PER_READ = 100  # seats (with their games' moves) read at a time: the export's memory is bounded by it


def export(engine: Engine, player_id: int) -> Iterator[bytes]:
    """Everything stored about ``player_id`` as JSON, a piece at a time (its games last, read
    :data:`SEATS_PER_READ` seats at a time, each read on a connection of its own); ``{}`` for no
    such player."""
    with engine.connect() as db:
        head = about(db, player_id)
    if head is None:
        yield b"{}"
        return
    yield orjson.dumps(head)[:-1] + b',"games":['
    separator, after = b"", None
    while True:
        with engine.connect() as db:
            seats = seats_after(db, player_id, after)
            found = details(db, player_id, seats)
        for seat in seats:
            yield separator + orjson.dumps(game_of(seat, *found))
            separator = b","
        if len(seats) < SEATS_PER_READ:
            break
        after = (seats[-1]["created_at"], seats[-1]["table_code"], seats[-1]["seat"])
    yield b"]}"


def about(db: Connection, player_id: int) -> dict[str, Any] | None:
    """What is stored about ``player_id`` but its games (``None``: no such player)."""
    me = db.execute(select(players).where(players.c.id == player_id)).mappings().first()
    if me is None:
        return None
    return {
        "format": FORMAT,
        "exported_at": now().isoformat(),
        "player": {"name": me["name"], "handle": me["handle"], "created_at": me["created_at"].isoformat()},
        "sessions": [
            {
                "created_at": s.created_at.isoformat(),
                "seen_at": s.seen_at.isoformat(),
                "expires_at": s.expires_at.isoformat(),
            }
            for s in db.execute(
                select(player_sessions)
                .where(player_sessions.c.player_id == player_id)
                .order_by(player_sessions.c.created_at)
            )
        ],
        "passkeys": passkeys_of(db, player_id),
        "ratings": [
            {
                "game": r.game,
                "players": r.players or None,
                "rating": shown(r.mu),
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
                "wins": r.wins,
            }
            for r in db.execute(
                select(ratings).where(ratings.c.player_id == player_id).order_by(ratings.c.game, ratings.c.players)
            )
        ],
        "notifications": [
            {
                "email": n.address,
                "language": n.language,
                "consented_at": n.consented_at.isoformat(),
                "confirmed_at": n.confirmed_at and n.confirmed_at.isoformat(),  # null: its link not yet followed
            }
            for n in db.execute(select(notify_emails).where(notify_emails.c.player_id == player_id))
        ],
        "puzzles": [
            {"game": a.game, "day": a.day and a.day.isoformat(), "solved": a.solved, "score": a.score}
            for a in db.execute(
                select(puzzle_attempts)
                .where(puzzle_attempts.c.player == attempts_key(player_id), puzzle_attempts.c.finished.is_(True))
                .order_by(puzzle_attempts.c.started_at)
            )
        ],
    }


def seats_after(db: Connection, player_id: int, after: tuple[Any, ...] | None) -> list[Any]:
    """The next :data:`SEATS_PER_READ` seats of the player (with their tables) after ``after``,
    in the order the tables were made."""
    order = (tables.c.created_at, tables.c.code, seat_tokens.c.seat)
    query = (
        select(seat_tokens.c.table_code, seat_tokens.c.seat, seat_tokens.c.name, tables)
        .join(tables, tables.c.code == seat_tokens.c.table_code)
        .where(seat_tokens.c.player_id == player_id)
        .order_by(*order)
        .limit(SEATS_PER_READ)
    )
    if after is not None:
        query = query.where(tuple_(*order) > tuple_(*after))
    return list(db.execute(query).mappings())


def details(db: Connection, player_id: int, seats: list[Any]) -> tuple[dict, dict, dict]:
    """The moves of the finished games of ``seats``, the player's rating changes there and what it said."""
    codes = [seat["table_code"] for seat in seats]
    moves: dict[str, list[list[Any]]] = defaultdict(list)
    for code, seat, action in db.execute(
        select(actions.c.table_code, actions.c.seat, actions.c.action)
        .where(actions.c.table_code.in_([seat["table_code"] for seat in seats if seat["finished"]]))
        .order_by(actions.c.table_code, actions.c.step)
    ):
        moves[code].append([seat, action])
    changes = {
        (c.table_code, c.seat): c
        for c in db.execute(
            select(rating_changes).where(
                rating_changes.c.player_id == player_id, rating_changes.c.table_code.in_(codes)
            )
        )
    }
    said = defaultdict(list)
    mine = {(seat["table_code"], seat["seat"]) for seat in seats}
    for line in db.execute(
        select(chat_lines)
        .where(chat_lines.c.table_code.in_(codes), chat_lines.c.seat.is_not(None))
        .order_by(chat_lines.c.id)
    ):
        if (line.table_code, line.seat) in mine:
            said[line.table_code].append({"at": line.at.isoformat(), "kind": line.kind, "body": line.body})
    return moves, changes, said


def game_of(seat: Any, moves: dict[str, list[list[Any]]], changes: dict, said: dict) -> dict[str, Any]:
    code = seat["table_code"]
    change = changes.get((code, seat["seat"]))
    return {
        "code": code,
        "game": seat["game"],
        "seat": seat["seat"],
        "name": seat["name"],
        "created_at": seat["created_at"].isoformat(),
        "finished": seat["finished"],
        "result": seat["result"] if seat["finished"] else None,
        "record": {
            "game": seat["game"],
            "players": seat["players"],
            "seed": seat["seed"],
            "options": seat["options"],
            "actions": moves[code],
        }
        if seat["finished"]
        else None,
        "rating": None
        if change is None
        else {"place": change.place, "before": shown(change.mu_before), "after": shown(change.mu_after)},
        "said": said.get(code, []),
    }


def delete_player(db: Connection, player_id: int, seat_name: Callable[[int], str] = lambda seat: DELETED) -> set[str]:
    """Delete the player ``player_id`` and what is personal of it (see the module); its seats are
    named ``seat_name(seat)``. Returns the codes of the tables whose seats it took."""
    handle = db.execute(select(players.c.handle).where(players.c.id == player_id)).scalar_one_or_none()
    taken = db.execute(
        select(seat_tokens.c.table_code, seat_tokens.c.seat).where(seat_tokens.c.player_id == player_id)
    ).all()
    for code, seat in taken:
        at_seat = (chat_lines.c.table_code == code) & (chat_lines.c.seat == seat)
        db.execute(delete(chat_lines).where(at_seat, chat_lines.c.kind.not_in(SWITCHES)))
        db.execute(update(chat_lines).where(at_seat).values(name=seat_name(seat)))
        plan = db.execute(select(tables.c.seats).where(tables.c.code == code)).scalar_one()
        if plan[seat].get("name"):
            plan = [dict(s, name=seat_name(seat)) if i == seat else s for i, s in enumerate(plan)]
            db.execute(update(tables).where(tables.c.code == code).values(seats=plan))
        db.execute(
            update(seat_tokens)
            .where(seat_tokens.c.table_code == code, seat_tokens.c.seat == seat)
            .values(name=seat_name(seat), player_id=None)
        )
    db.execute(update(rating_changes).where(rating_changes.c.player_id == player_id).values(player_id=None))
    db.execute(delete(ratings).where(ratings.c.player_id == player_id))
    db.execute(delete(player_tallies).where(player_tallies.c.player_id == player_id))
    db.execute(delete(player_sessions).where(player_sessions.c.player_id == player_id))
    db.execute(delete(passkeys).where(passkeys.c.player_id == player_id))
    db.execute(delete(passkey_challenges).where(passkey_challenges.c.player_id == player_id))
    db.execute(delete(match_queue).where(match_queue.c.player_id == player_id))
    db.execute(delete(push_subscriptions).where(push_subscriptions.c.player_id == player_id))
    db.execute(delete(notify_emails).where(notify_emails.c.player_id == player_id))
    db.execute(delete(puzzle_attempts).where(puzzle_attempts.c.player == attempts_key(player_id)))
    if handle:
        clear_failures(db, account_failures_key(handle))
    db.execute(delete(players).where(players.c.id == player_id))
    return {code for code, _ in taken}

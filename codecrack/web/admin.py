"""``codecrack admin``: what an operator does to a running service, on its database (SQLite or
PostgreSQL) and, when given, its Redis. Closing a live table goes through a running instance
instead (:mod:`.admin_routes`).

Names are changed in the database; with Redis, the instances that have the table loaded are told
at once (they re-read its seats); without, a server shows the new name once it loads the table
again. Actions carry no names, so every record still replays.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import String, cast, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from .chat import SWITCHES
from .config import WebConfig
from .players.accounts import account_failures_key, handle_key
from .players.leaving import delete_player
from .store import (
    actions,
    blocked_names,
    chat_lines,
    name_key,
    now,
    players,
    seat_tokens,
    sign_in_failures,
    tables,
)

LIMITS = (
    "max_body_bytes",
    "max_ws_message_bytes",
    "max_name_length",
    "messages_per_second",
    "message_burst",
    "tables_per_minute",
    "connections_per_address",
    "spectators_per_table",
    "send_queue_limit",
    "send_timeout",
    "max_live_tables",
    "unjoined_table_ttl",
    "token_hours",
    "disconnect_timeout",
    "turn_think",
    "turn_countdown",
)


@dataclass
class LiveRow:
    """One unfinished table, as ``admin tables`` lists it."""

    code: str
    game: str
    steps: int
    players: list[str]  # the names of its claimed seats
    active_at: datetime
    driver: str | None = None  # the instance that drives it (its lease's owner), with Redis


def live_tables(engine: Engine) -> list[LiveRow]:
    """The unfinished tables that are not closed, the latest active first."""
    steps = select(actions.c.table_code, func.count().label("steps")).group_by(actions.c.table_code).subquery("steps")
    query = (
        select(tables.c.code, tables.c.game, tables.c.active_at, func.coalesce(steps.c.steps, 0))
        .outerjoin(steps, steps.c.table_code == tables.c.code)
        .where(tables.c.finished.is_(False), tables.c.closed.is_(None))
        .order_by(tables.c.active_at.desc())
    )
    with engine.connect() as db:
        rows = db.execute(query).all()
        names: dict[str, list[str]] = {}
        for code, name in db.execute(select(seat_tokens.c.table_code, seat_tokens.c.name).order_by(seat_tokens.c.seat)):
            names.setdefault(code, []).append(name)
    return [LiveRow(code, game, count, names.get(code, []), active) for code, game, active, count in rows]


def redis_view(redis_url: str, codes: list[str]) -> tuple[dict[str, str], dict[str, set[str]]]:
    """From Redis: the driver of each of ``codes`` that has one, and every instance seen (each
    driving or holding connected players) with the tables it drives or serves."""
    from redis import Redis

    from .cluster import PRESENCE_PREFIX
    from .leases import LEASE_PREFIX

    client = Redis.from_url(redis_url, socket_connect_timeout=2.0, decode_responses=True)
    try:  # redis-py types its answers for every client; this one decodes them to str
        drivers = {
            key.removeprefix(LEASE_PREFIX): value
            for key in client.scan_iter(LEASE_PREFIX + "*")
            if (value := typing.cast(str | None, client.get(key))) is not None
        }
        instances: dict[str, set[str]] = {}
        for code, owner in drivers.items():
            instances.setdefault(owner, set()).add(code)
        for key in client.scan_iter(PRESENCE_PREFIX + "*"):
            code = key.removeprefix(PRESENCE_PREFIX)
            for member in typing.cast(list[str], client.zrangebyscore(key, now().timestamp() * 1000, "+inf")):
                instances.setdefault(member.split(":", 1)[1], set()).add(code)
    finally:
        client.close()
    return {code: drivers[code] for code in codes if code in drivers}, instances


def tell_instances(redis_url: str | None, codes: set[str]) -> None:
    """Have the instances that hold ``codes`` re-read their seats (see :mod:`.cluster`)."""
    if not redis_url or not codes:
        return
    from redis import Redis

    from .fanout_redis import channel_of, json_text

    client = Redis.from_url(redis_url, socket_connect_timeout=2.0)
    try:
        for code in codes:
            client.publish(channel_of(code), json_text({"from": "admin", "kind": "table"}))
    finally:
        client.close()


def rename(engine: Engine, old: str, new: str) -> set[str]:
    """Every seat named ``old`` (its claim or the seat plan) is named ``new``; returns the tables
    changed."""
    with engine.begin() as db:
        return _renamed(db, old, lambda seat: new)


def forget(engine: Engine, name: str) -> set[str]:
    """Delete a player's personal data. The players named ``name`` or with the account ``name``
    (any case) are deleted with their sessions, ratings, counted sign-in failures, quick-match entry
    and daily puzzles' attempts (their rating changes stay in the other players' games, unnamed);
    every seat named ``name`` or taken by one of them becomes "Player N" (its seat's number) and no
    longer says who took it; what they said at those seats (and as a spectator named ``name``) is
    deleted, their chat switches stay unnamed. The games stay, and still replay. Returns the tables changed."""

    def numbered(seat: int) -> str:
        return f"Player {seat + 1}"

    with engine.begin() as db:
        found = select(players.c.id).where(or_(players.c.name == name, players.c.handle_key == handle_key(name)))
        changed: set[str] = set()
        for player_id in list(db.execute(found).scalars()):
            changed |= delete_player(db, player_id, numbered)
        seats = db.execute(select(seat_tokens.c.table_code, seat_tokens.c.seat).where(seat_tokens.c.name == name)).all()
        changed |= _renamed(db, name, numbered)
        for code, seat in seats:
            said = (chat_lines.c.table_code == code) & (chat_lines.c.seat == seat)
            db.execute(delete(chat_lines).where(said, chat_lines.c.kind.not_in(SWITCHES)))
            db.execute(update(chat_lines).where(said).values(name=numbered(seat)))
        watched = db.execute(
            delete(chat_lines)
            .where(chat_lines.c.seat.is_(None), chat_lines.c.name == name)
            .returning(chat_lines.c.table_code)
        )
        changed |= set(watched.scalars())
        db.execute(delete(sign_in_failures).where(sign_in_failures.c.key == account_failures_key(name)))
    return changed


def _renamed(db: Connection, old: str, new_name: Callable[[int], str]) -> set[str]:
    """Every seat named ``old`` (its claim), and every seat plan's seat named ``old``, is named
    ``new_name(seat)``; returns the tables changed."""
    changed: set[str] = set()
    claims = db.execute(
        select(seat_tokens.c.token, seat_tokens.c.table_code, seat_tokens.c.seat).where(seat_tokens.c.name == old)
    ).all()
    for token, code, seat in claims:
        db.execute(update(seat_tokens).where(seat_tokens.c.token == token).values(name=new_name(seat)))
        changed.add(code)
    for code, seats in db.execute(select(tables.c.code, tables.c.seats).where(_seats_mention(old))):
        plan = [dict(s, name=new_name(i)) if s.get("name") == old else s for i, s in enumerate(seats)]
        if plan != seats:
            db.execute(update(tables).where(tables.c.code == code).values(seats=plan))
            changed.add(code)
    return changed


def _seats_mention(name: str):
    """A cheap filter for the tables whose seat plan may name ``name`` (the JSON's text contains it)."""
    return cast(tables.c.seats, String).contains(json.dumps(name)[1:-1])


def block(engine: Engine, name: str) -> bool:
    """Refuse ``name`` (any case) for new seats and tables from now on; ``False`` if it already was."""
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    statement = (
        dialect.insert(blocked_names)
        .values(name=name_key(name), blocked_at=now())
        .on_conflict_do_nothing()
        .execution_options(preserve_rowcount=True)  # else psycopg's cursor is closed before it is read: -1
    )
    with engine.begin() as db:
        return db.execute(statement).rowcount == 1


def unblock(engine: Engine, name: str) -> bool:
    with engine.begin() as db:
        return db.execute(delete(blocked_names).where(blocked_names.c.name == name_key(name))).rowcount == 1


def limits(config: WebConfig) -> dict[str, Any]:
    """The limits in force for a server started with this environment (``CODECRACK_*``)."""
    return {name: getattr(config, name) for name in LIMITS}

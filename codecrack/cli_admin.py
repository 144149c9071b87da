"""The operator's commands: ``codecrack backup``, ``codecrack restore`` and ``codecrack admin ...``
(docs/deploy.md). Each takes the database as ``serve`` does: ``--db``, else ``$CODECRACK_DB``, else
SQLite in ``$CODECRACK_DATA`` or ./data."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from .cli_language import LocalizedCommand, LocalizedGroup
from .i18n import N_, _

console = Console()
DB_HELP = N_("SQLAlchemy URL (default: $CODECRACK_DB, else SQLite in ./data).")
TIME_LIMIT = 3600.0  # seconds, for pg_dump and pg_restore
TIME_LIMIT_HELP = N_("Stop pg_dump or pg_restore after this many seconds (PostgreSQL).")
REDIS_HELP = N_("Redis URL of the instances, if they run several (default: $CODECRACK_REDIS_URL).")
admin = typer.Typer(cls=LocalizedGroup, help=N_("Operate a running service: tables, names, limits, records."))


def engine_for(db: str | None):
    from .web.config import db_url_from
    from .web.store import make_engine

    return make_engine(db_url_from(db))


def redis_from(redis: str | None) -> str | None:
    return redis or os.environ.get("CODECRACK_REDIS_URL") or None


def failed(message: str) -> typer.Exit:
    console.print(f"[red]{message}[/red]")
    return typer.Exit(2)


def backup(
    out: Path = typer.Argument(..., help=N_("The new file to write the backup to.")),
    db: str | None = typer.Option(None, help=DB_HELP),
    time_limit: float = typer.Option(TIME_LIMIT, min=1.0, help=TIME_LIMIT_HELP),
) -> None:
    from .web.backup import BackupError
    from .web.backup import backup as take_backup
    from .web.config import db_url_from

    try:
        take_backup(db_url_from(db), out, time_limit)
    except BackupError as error:
        raise failed(str(error)) from None
    console.print(_("backup written to {path}").format(path=out))


def restore(
    source: Path = typer.Argument(..., help=N_("A file written by `codecrack backup`.")),
    db: str = typer.Option(..., help=N_("SQLAlchemy URL of the new, empty database to restore into.")),
    time_limit: float = typer.Option(TIME_LIMIT, min=1.0, help=TIME_LIMIT_HELP),
) -> None:
    from .web.backup import BackupError
    from .web.backup import restore as load_backup

    try:
        load_backup(source, db, time_limit)
    except BackupError as error:
        raise failed(str(error)) from None
    console.print(_("restored {path}").format(path=source))


@admin.command(cls=LocalizedCommand, help=N_("List the unfinished tables, and with Redis who drives each."))
def tables(
    db: str | None = typer.Option(None, help=DB_HELP), redis: str | None = typer.Option(None, help=REDIS_HELP)
) -> None:
    from .web.admin import live_tables, redis_view

    engine = engine_for(db)
    rows = live_tables(engine)
    engine.dispose()
    url = redis_from(redis)
    drivers = redis_view(url, [row.code for row in rows])[0] if url else {}
    listing = Table("code", "game", "steps", "players", "last action", "driver")
    for row in rows:
        listing.add_row(
            row.code,
            row.game,
            str(row.steps),
            ", ".join(row.players),
            f"{row.active_at:%Y-%m-%d %H:%M:%S}",
            drivers.get(row.code, "-"),
        )
    console.print(listing)


@admin.command(cls=LocalizedCommand, help=N_("List the instances seen in Redis and the tables each serves."))
def instances(redis: str | None = typer.Option(None, help=REDIS_HELP)) -> None:
    from .web.admin import redis_view

    url = redis_from(redis)
    if not url:
        raise failed(_("give --redis (or CODECRACK_REDIS_URL): one instance without Redis is the server itself"))
    for name, codes in sorted(redis_view(url, [])[1].items()):
        console.print(f"{name}: {len(codes)} " + " ".join(sorted(codes)))


@admin.command(cls=LocalizedCommand, help=N_("Close a live table for good; its players are told the reason."))
def close(
    code: str = typer.Argument(...),
    reason: str = typer.Option(..., help=N_("What its players are told.")),
    url: str = typer.Option("http://127.0.0.1:8000", help=N_("A running instance (or the load balancer).")),
) -> None:
    import httpx

    token = os.environ.get("CODECRACK_ADMIN_TOKEN")
    if not token:
        raise failed(_("set CODECRACK_ADMIN_TOKEN to the servers' admin token"))
    answer = httpx.post(
        f"{url.rstrip('/')}/api/tables/{code}/close",
        json={"reason": reason},
        headers={"authorization": f"Bearer {token}"},
        timeout=30,
    )
    if answer.status_code != 200:
        raise failed(f"{answer.status_code}: {answer.json().get('detail')}")
    console.print(_("closed {code}").format(code=code.upper()))


@admin.command(cls=LocalizedCommand, help=N_("Rename a player: every seat with that name."))
def rename(
    old: str = typer.Argument(...),
    new: str = typer.Argument(...),
    db: str | None = typer.Option(None, help=DB_HELP),
    redis: str | None = typer.Option(None, help=REDIS_HELP),
) -> None:
    from .web.admin import rename as rename_seats
    from .web.admin import tell_instances

    engine = engine_for(db)
    changed = rename_seats(engine, old, new)
    engine.dispose()
    tell_instances(redis_from(redis), changed)
    console.print(_("{count} tables changed").format(count=len(changed)))


@admin.command(cls=LocalizedCommand, help=N_("Refuse a name (any case) for new seats and tables."))
def block(name: str = typer.Argument(...), db: str | None = typer.Option(None, help=DB_HELP)) -> None:
    from .web.admin import block as block_name

    engine = engine_for(db)
    block_name(engine, name)
    engine.dispose()
    console.print(_("blocked {name!r}").format(name=name))


@admin.command(cls=LocalizedCommand, help=N_("Allow a blocked name again."))
def unblock(name: str = typer.Argument(...), db: str | None = typer.Option(None, help=DB_HELP)) -> None:
    from .web.admin import unblock as unblock_name

    engine = engine_for(db)
    unblock_name(engine, name)
    engine.dispose()
    console.print(_("unblocked {name!r}").format(name=name))


@admin.command(
    cls=LocalizedCommand,
    help=N_("Delete a player's personal data: their account, sessions and chat lines; their name becomes 'Player N'."),
)
def forget(
    name: str = typer.Argument(...),
    db: str | None = typer.Option(None, help=DB_HELP),
    redis: str | None = typer.Option(None, help=REDIS_HELP),
) -> None:
    from .web.admin import forget as forget_name
    from .web.admin import tell_instances

    engine = engine_for(db)
    changed = forget_name(engine, name)
    engine.dispose()
    tell_instances(redis_from(redis), changed)
    console.print(_("{count} tables changed").format(count=len(changed)))


@admin.command(cls=LocalizedCommand, help=N_("Show the limits in force for a server with this environment."))
def limits() -> None:
    from .web.admin import limits as limits_in_force
    from .web.config import WebConfig

    print(json.dumps(limits_in_force(WebConfig()), indent=2))


@admin.command(cls=LocalizedCommand, help=N_("Check the database: every record replays to what is stored."))
def check(db: str | None = typer.Option(None, help=DB_HELP)) -> None:
    from .web.records import check_records

    engine = engine_for(db)
    found = check_records(engine)
    engine.dispose()
    for problem in found.problems:
        console.print(f"[red]{problem}[/red]")
    console.print(
        _("{finished} finished and {unfinished} unfinished tables, {problems} problems").format(
            finished=found.finished, unfinished=found.unfinished, problems=len(found.problems)
        )
    )
    if found.problems:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``backup``, ``restore`` and ``admin`` to the ``codecrack`` command."""
    app.command(cls=LocalizedCommand, help=N_("Copy a running server's database into a new file (docs/deploy.md)."))(
        backup
    )
    app.command(cls=LocalizedCommand, help=N_("Load a backup into a new, empty database (docs/deploy.md)."))(restore)
    app.add_typer(admin, name="admin")

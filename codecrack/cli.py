"""The ``codecrack`` command line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .cli_admin import register as register_operator_commands
from .cli_language import LocalizedCommand, LocalizedGroup
from .core.errors import OptionError, explain
from .core.options import split_option_text
from .i18n import N_, _, from_environment, set_language

app = typer.Typer(
    cls=LocalizedGroup, help=N_("codecrack: hidden-code deduction games, their AIs and an arena."), no_args_is_help=True
)
console = Console()

OPTION_HELP = N_("A game option as key=value; repeatable. The options are listed below.")
# Settings that are command-line flags, not game options: what to use instead.
NOT_OPTIONS = {
    "play": {"players": N_("one seat per name in --seats"), "seed": "--seed"},
    "arena": {"players": "--players", "seed": "--seed"},
}


def _options(pairs: list[str], command: str = "") -> dict[str, str]:
    try:
        options = split_option_text(pairs)
    except OptionError as error:
        raise typer.BadParameter(explain(error)) from None
    for key, instead in NOT_OPTIONS.get(command, {}).items():
        if key in options:
            raise typer.BadParameter(
                _("{key} is not a game option; use {instead}").format(key=key, instead=_(instead)),
                param_hint="--option",
            )
    return options


class PlayCommand(LocalizedCommand):
    """``play``: its help ends with every game's options and presets (read only when shown)."""

    @property
    def epilog(self) -> str:
        from .terminal.options_help import options_epilog

        return options_epilog()

    @epilog.setter
    def epilog(self, value: str | None) -> None:
        pass


@app.command(cls=PlayCommand, help=N_("Play a game in the terminal against humans (hot seat) and bots."))
def play(
    game: str = typer.Argument(..., help=N_("The game: {games}.")),
    seats: str = typer.Option("human,random", help=N_("Comma-separated: human or an agent name per seat.")),
    seed: int | None = typer.Option(None, help=N_("The game's seed (default: a fresh one).")),
    preset: str | None = typer.Option(None, help=N_("A named set of options (listed below); --option changes it.")),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    save: Path | None = typer.Option(None, help=N_("Write the game's record to this JSON file.")),
    lang: str | None = typer.Option(
        None,
        help=N_("The language of the game's texts: {languages} (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)."),
    ),
) -> None:
    if lang is not None:
        set_language(lang)
    from .terminal.options_help import preset_options, typed_seat_options
    from .terminal.play import play as play_game

    try:
        typed = typed_seat_options(game, _options(option, "play"), players=len(seats.split(",")))
        options = {**preset_options(game, preset), **typed}
        record = play_game(game, seats.split(","), seed=seed, options=options, console=console)
    except (OptionError, EOFError, KeyboardInterrupt) as error:
        console.print(Text(explain(error) or _("stopped"), style="red"))
        raise typer.Exit(1) from None
    if save is not None:
        save.write_text(json.dumps(record, indent=1))


@app.command(cls=LocalizedCommand, help=N_("Play many games between agents, rotating seats, and report win rates."))
def arena(
    game: str = typer.Option(..., help=N_("The game: {games}.")),
    players: int = typer.Option(2, help=N_("Seats per game.")),
    agents: str = typer.Option(
        ...,
        help=N_("Comma-separated agent names, or cmd:<command> for a protocol bot; the last one fills spare seats."),
    ),
    games: int = typer.Option(100, help=N_("Number of games.")),
    seed: int = typer.Option(0, help=N_("Series seed; game i uses a seed derived from it.")),
    workers: int = typer.Option(1, help=N_("Parallel processes (local) or CPUs (ray).")),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    time_limit: float = typer.Option(5.0, help=N_("Seconds a cmd: bot has for each answer.")),
    backend: str = typer.Option("local", help=N_("local (processes) or ray.")),
    address: str | None = typer.Option(None, help=N_("ray: the cluster's address (default: a local Ray).")),
    ratings: Path | None = typer.Option(None, help=N_("Update the OpenSkill ladder kept in this JSON file.")),
    report: Path | None = typer.Option(None, help=N_("Write an offline HTML report with plots to this file.")),
    as_json: bool = typer.Option(False, "--json", help=N_("Print JSON instead of a table.")),
) -> None:
    from .arena import ArenaConfig, play_series
    from .ratings import Ladder, RatingsError
    from .terminal.options_help import typed_seat_options

    try:
        config = ArenaConfig(
            game,
            players,
            tuple(agents.split(",")),
            games,
            seed,
            workers,
            typed_seat_options(game, _options(option, "arena"), players),
            time_limit,
        )
        ladder = Ladder.load(ratings) if ratings is not None else Ladder()
        if report is not None:
            from .report import require_matplotlib

            require_matplotlib()
        series = play_series(config, backend, address)
    except (OptionError, RatingsError) as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from None
    summary = series.summary()
    curves = ladder.rate(game, series.games)
    if ratings is not None:
        ladder.save(ratings)
    if report is not None:
        from .report import write_report

        write_report(report, summary, series.games, curves)
    if as_json:
        print(json.dumps(summary))
    else:
        _print_arena(summary)


def _print_arena(summary: dict[str, Any]) -> None:
    from .terminal.seats import shown  # seats on screen count from 1; the JSON keeps the engine's

    title = (
        f"{summary['game']}, {summary['players']} players, {summary['games']} games, {summary['games_per_s']} games/s"
    )
    table = Table(title=title)
    for column in (
        "agent",
        "seats",
        "wins",
        "win rate",
        "95% CI",
        "fair share",
        "mean score",
        "faults",
        "ms p50",
        "ms p95",
    ):
        table.add_column(column)
    for row in summary["agents"]:
        table.add_row(
            row["name"],
            str(row["seats"]),
            str(row["wins"]),
            f"{row['win_rate']:.3f}",
            f"{row['ci95'][0]:.3f}-{row['ci95'][1]:.3f}",
            f"{row['fair_share']:.3f}",
            str(row.get("mean_score", "")),
            str(row["faults"]),
            str(row["decision_ms"]["p50"]),
            str(row["decision_ms"]["p95"]),
        )
    console.print(table)
    for fault in summary["faults"]:
        console.print(
            f"game {fault['game']}, seat {shown(fault['seat'])}, {fault['agent']} lost by {fault['kind']}: "
            f"{fault['detail']}",
            markup=False,
            style="red",
        )
    if summary["fault_count"] > len(summary["faults"]):
        console.print(f"... {summary['fault_count']} faults in all", style="red")


@app.command(
    cls=LocalizedCommand,
    help=N_("Print the OpenSkill ladder kept by arena --ratings, best ordinal (mu - 3 sigma) first."),
)
def ladder(
    path: Path = typer.Argument(..., help=N_("A ratings file written by arena --ratings.")),
    game: str | None = typer.Option(None, help=N_("Only this game's ladder.")),
    as_json: bool = typer.Option(False, "--json", help=N_("Print JSON.")),
) -> None:
    from .ratings import Ladder, RatingsError

    if not path.exists():
        console.print(f"[red]no ratings file at {path}[/red]")
        raise typer.Exit(2)
    try:
        ratings = Ladder.load(path)
    except RatingsError as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from None
    games = [game] if game is not None else ratings.game_names()
    if as_json:
        print(json.dumps({name: ratings.table(name) for name in games}))
        return
    for name in games:
        table = Table(title=f"{name} ladder")
        for column in ("#", "agent", "ordinal", "mu", "sigma", "games"):
            table.add_column(column)
        for rank, row in enumerate(ratings.table(name), 1):
            table.add_row(
                str(rank),
                row["name"],
                f"{row['ordinal']:.2f}",
                f"{row['mu']:.2f}",
                f"{row['sigma']:.2f}",
                str(row["games"]),
            )
        console.print(table)


@app.command(
    cls=LocalizedCommand, help=N_("Speak the bot protocol on stdin/stdout with one of codecrack's own agents.")
)
def bot(
    game: str | None = typer.Option(None, help=N_("The game this bot plays (hello must name it).")),
    level: str = typer.Option("hard", help=N_("The codecrack agent to play: random, easy, medium or hard.")),
    seed: int = typer.Option(0, help=N_("Seed of the agent's own choices.")),
    schema: bool = typer.Option(False, "--schema", help=N_("Print the protocol's JSON Schemas and exit.")),
) -> None:
    from .protocol import ProtocolError, json_schemas, serve
    from .protocol.bot import agent_maker

    if schema:
        print(json.dumps(json_schemas(), indent=2))
        return
    if game is None:
        raise typer.BadParameter("--game is required", param_hint="--game")
    try:
        serve(agent_maker(game, level, seed))
    except (OptionError, ProtocolError) as error:
        typer.echo(f"codecrack bot: {error}", err=True)
        raise typer.Exit(2) from None


@app.command(cls=LocalizedCommand, help=N_("Run a benchmark and report medians and p95s."))
def bench(
    name: str = typer.Argument(..., help=N_("engine, coda-belief, coding-belief, alphacode-solver, ...")),
    game: str | None = typer.Option(None, help=N_("For engine: the game.")),
    seed: int | None = typer.Option(None),
    games: int | None = typer.Option(None, help=N_("How many games or positions.")),
    level: str | None = typer.Option(None, help=N_("Agent level, where the benchmark takes one.")),
    codes: int | None = typer.Option(None, help=N_("alphacode-solver: how many codes.")),
    letters: int | None = typer.Option(None, help=N_("alphacode-solver: 10 or 20 letters.")),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    as_json: bool = typer.Option(False, "--json", help=N_("Print JSON.")),
) -> None:
    from .bench import run_benchmark

    params: dict[str, Any] = dict(game=game, seed=seed, games=games, level=level, codes=codes, letters=letters)
    params.update(_options(option))
    try:
        report = run_benchmark(name, **params)
    except (OptionError, TypeError) as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from None
    print(json.dumps(report) if as_json else json.dumps(report, indent=2))


@app.command(
    cls=LocalizedCommand,
    help=N_("Find puzzles in self-play games: positions with one clearly best decision, graded by difficulty."),
)
def puzzles(
    game: str = typer.Argument(..., help=N_("The game (one with a puzzles module: coda).")),
    games: int = typer.Option(40, help=N_("How many games or positions.")),
    seed: int = typer.Option(1),
    out: Path = typer.Option(..., help=N_("The JSON file to write.")),
) -> None:
    import importlib

    try:
        found = importlib.import_module(f"codecrack.games.{game}.puzzles").find_puzzles(games=games, seed=seed)
    except ModuleNotFoundError as error:
        if not (error.name or "").startswith("codecrack.games."):
            raise
        refusal = _("no puzzles for the game {game!r}").format(game=game)
        console.print(f"[red]{refusal}[/red]")
        raise typer.Exit(2) from None
    out.write_text(json.dumps(found, indent=1) + "\n")
    print(_("{count} puzzles written to {path}").format(count=len(found), path=out))


@app.command(
    cls=LocalizedCommand, help=N_("Review one seat's decisions from what it could see, graded best to blunder.")
)
def review(
    record: Path = typer.Argument(..., help=N_("A game record (JSON), e.g. from play --save.")),
    seat: int = typer.Option(..., help=N_("The seat whose decisions to review, from 1 as in play's seat options.")),
    as_json: bool = typer.Option(False, "--json", help=N_("Print JSON instead of a table.")),
) -> None:
    from .review import review_record
    from .review.core import replayed
    from .review.render import print_review
    from .terminal.seats import typed

    try:
        data = json.loads(record.read_text())
        result = review_record(data, typed(str(seat), players=replayed(data)[0].players))
    except (OSError, ValueError) as error:  # unreadable file, bad JSON, ReviewError
        console.print(Text(explain(error), style="red"))
        raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(result.to_json()))
        return
    print_review(result, console)


@app.command(
    cls=LocalizedCommand,
    help=N_("Start the web app. Limits and other settings: CODECRACK_* environment variables (docs/web.md)."),
)
def serve(
    host: str = typer.Option("127.0.0.1", envvar="CODECRACK_HOST"),
    port: int = typer.Option(8000, envvar="CODECRACK_PORT"),
    db: str | None = typer.Option(None, help=N_("SQLAlchemy URL (default: SQLite in ./data).")),
    allow_seed: bool = typer.Option(
        False,
        help=N_(
            "Let clients choose a table's seed (local and test use only: "
            "a seeded table's creator can work out every hidden tile)."
        ),
    ),
    redis: str | None = typer.Option(
        None, help=N_("Redis URL: run as one of several instances on one PostgreSQL database (docs/deploy.md).")
    ),
    workers: int = typer.Option(
        1, help=N_("Server processes on the port, each one an instance: more than one needs PostgreSQL and Redis.")
    ),
    log_format: str | None = typer.Option(
        None, help=N_("text (the default) or json: one JSON object per line (docs/deploy.md).")
    ),
) -> None:
    from .web.server import serve as run_server

    run_server(host=host, port=port, db=db, allow_seed=allow_seed, redis=redis, workers=workers, log_format=log_format)


@app.command(
    cls=LocalizedCommand,
    help=N_("Drive tables of simulated players over real websockets; print a JSON report (docs/benchmarks.md)."),
)
def loadtest(
    url: str = typer.Option("http://127.0.0.1:8000", help=N_("The server to load (loopback only).")),
    spawn: bool = typer.Option(False, help=N_("Start a server of our own on a free port (limits raised for the run).")),
    db: str | None = typer.Option(
        None, help=N_("With --spawn: the server's SQLAlchemy URL (default: SQLite in a temp folder).")
    ),
    server_pid: int | None = typer.Option(None, help=N_("Read this server process's CPU and RSS from /proc.")),
    tables: str = typer.Option("4", help=N_("Tables played at once; a comma list steps through several loads.")),
    seconds: float = typer.Option(20.0, help=N_("Time per step (at most 3600).")),
    games: int = typer.Option(0, help=N_("Games per table slot (0: back to back until the time is up).")),
    pace: str = typer.Option("flat", help=N_("flat (act at once) or human (one action per 2-5 s).")),
    game: str | None = typer.Option(None, help=N_("The game the tables play: {games} (default: the first).")),
    humans: int = typer.Option(2, help=N_("Human seats per table, each a websocket client.")),
    ai_seats: int = typer.Option(0, help=N_("AI seats per table, played by the server.")),
    ai_agent: str = typer.Option("random", help=N_("The AI seats' agent.")),
    seed: int = typer.Option(0, help=N_("Seeds the simulated players' choices and pauses.")),
    tables_per_minute: int = typer.Option(20, help=N_("The server's CODECRACK_TABLES_PER_MINUTE (kept to).")),
    connections_per_address: int = typer.Option(32, help=N_("The server's CODECRACK_CONNECTIONS_PER_ADDRESS.")),
    messages_per_second: float = typer.Option(20.0, help=N_("The server's CODECRACK_MESSAGES_PER_SECOND.")),
    allow_remote: bool = typer.Option(False, help=N_("Allow a non-loopback URL (never on shared machines).")),
    anchor: Path | None = typer.Option(
        None,
        help=N_(
            "Also measure boardgame.io with the same steps: its harness "
            "folder (loadtest/boardgameio, after `npm ci` there)."
        ),
    ),
    open_first: bool = typer.Option(
        False,
        help=N_(
            "Create and seat every slot's first table before each step's "
            "clock starts (for thousands of sockets at human pace)."
        ),
    ),
    warmup: float = typer.Option(
        0.0,
        help=N_(
            "Seconds played at the start of each step before latencies, "
            "actions and CPU are counted (errors and games count throughout)."
        ),
    ),
    client_processes: int = typer.Option(
        1,
        help=N_(
            "Client processes that share each step's tables, so that "
            "the load generator is not one process's event loop."
        ),
    ),
    accounts: bool = typer.Option(
        False,
        help=N_(
            "Play as accounts, signed up and in through the API before each step's clock "
            "starts, at rated tables (guests' tables are never rated)."
        ),
    ),
) -> None:
    from .loadtest import LoadSettings, run_load
    from .loadtest.players import TablePlan, first_game
    from .loadtest.target import TargetError

    try:
        settings = LoadSettings(
            url=url,
            tables=[int(n) for n in tables.split(",")],
            seconds=seconds,
            games=games,
            pace=pace,
            seed=seed,
            plan=TablePlan(game or first_game(), humans, ai_agent, ai_seats),
            spawn=spawn,
            db=db,
            server_pid=server_pid,
            allow_remote=allow_remote,
            tables_per_minute=tables_per_minute,
            connections_per_address=connections_per_address,
            messages_per_second=messages_per_second,
            anchor=anchor,
            open_first=open_first,
            warmup=warmup,
            client_processes=client_processes,
            accounts=accounts,
        )
        report = run_load(settings)
    except (TargetError, ValueError) as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from None
    print(json.dumps(report, indent=2))


register_operator_commands(app)


def main() -> None:
    set_language(from_environment(os.environ))
    app()

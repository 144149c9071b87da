"""``codecrack play``: humans and bots at one terminal."""

from __future__ import annotations

import json
from typing import Any, Callable

from rich.console import Console

from ..agents import make_agent
from ..core.registry import new_game
from ..core.runner import run_game
from .human import TerminalHuman, game_screen, render_view


def describe(game: str, seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    screen = game_screen(game)
    if screen is not None and hasattr(screen, "describe"):
        return screen.describe(seat, action, events)
    return f"seat {seat}: {json.dumps(action)}"


def play(game_name: str, seats: list[str], *, seed: int | None, options: dict[str, Any],
         console: Console | None = None, read: Callable[[str], str] | None = None) -> dict[str, Any]:
    """Play one game; ``seats`` names ``human`` or an agent per seat. Returns the record."""
    console = console or Console()
    game = new_game(game_name, players=len(seats), seed=seed, **options)
    agents = {
        seat: TerminalHuman(game_name, console, read) if name == "human"
        else make_agent(name, game_name, seed=game.seed * 31 + seat)
        for seat, name in enumerate(seats)
    }
    screen = game_screen(game_name)
    if screen is not None and hasattr(screen, "run"):
        screen.run(game, agents, console)
    else:
        run_game(game, agents, on_step=lambda s, a, e: console.print(describe(game_name, s, a, e)))
    console.print(render_view(game_name, game.view(None)))
    console.print(f"[bold green]Game over:[/bold green] {json.dumps(game.result)}")
    return game.record()

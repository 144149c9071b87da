"""``codecrack play``: humans and bots at one terminal."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.panel import Panel

from ..agents import make_agent
from ..core.game import Game
from ..core.registry import new_game
from ..core.runner import run_game
from ..i18n import N_, _
from .human import TerminalHuman, ask_again, game_screen, render_view
from .seats import seat_name


def describe(game: str, seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    screen = game_screen(game)
    if screen is not None and hasattr(screen, "describe"):
        return screen.describe(seat, action, events)
    return f"{seat_name(seat)}: {json.dumps(action)}"


def play(
    game_name: str,
    seats: list[str],
    *,
    seed: int | None,
    options: dict[str, Any],
    console: Console | None = None,
    read: Callable[[str], str] | None = None,
) -> dict[str, Any]:
    """Play one game; ``seats`` names ``human`` or an agent per seat. Returns the record."""
    console = console or Console()
    game = new_game(game_name, players=len(seats), seed=seed, **options)
    agents = {
        seat: TerminalHuman(game_name, console, read)
        if name == "human"
        else make_agent(name, game_name, seed=game.seed * 31 + seat)
        for seat, name in enumerate(seats)
    }
    screen = game_screen(game_name)
    if "human" in seats and hasattr(screen, "HOW_TO_PLAY"):
        console.print(Panel(_(screen.HOW_TO_PLAY), title=_(HOW_TO_PLAY), title_align="left"))
    if screen is not None and hasattr(screen, "run"):
        screen.run(game, agents, console)
    else:
        run_game(
            game,
            agents,
            on_step=lambda s, a, e: console.print(describe(game_name, s, a, e)),
            on_refused=ask_again(agents),
        )
    console.print(render_view(game_name, game.view(None)))
    console.print(Panel("\n".join(summary(game_name, game)), title=_(GAME_OVER), title_align="left", style="green"))
    return game.record()


GAME_OVER = N_("Game over")
HOW_TO_PLAY = N_("How to play")
ONE_WINNER = N_("Winner: {names}.")
SHARED_WIN = N_("Shared win: {names}.")
NO_WINNER = N_("Nobody wins.")
SCORES = N_("Scores: {scores}.")
REASON = N_("How it ended: {reason}.")
DECISIVE = N_("The decisive moves:")


def summary(game_name: str, game: Game) -> list[str]:
    """The end in words: who won, the scores, why, then what the game's terminal module adds
    (everything that was hidden: codes, tiles)."""
    result = game.result
    if result is None:
        raise ValueError("the game is not over: it has no end to tell")
    names = ", ".join(seat_name(seat) for seat in result["winners"])
    lines = [
        _(NO_WINNER)
        if not result["winners"]
        else _(ONE_WINNER if len(result["winners"]) == 1 else SHARED_WIN).format(names=names)
    ]
    if result.get("scores"):
        lines.append(
            _(SCORES).format(
                scores=", ".join(f"{seat_name(seat)}: {score}" for seat, score in enumerate(result["scores"]))
            )
        )
    if result.get("reason"):
        lines.append(_(REASON).format(reason=_(result["reason"])))
    screen = game_screen(game_name)
    if screen is not None and hasattr(screen, "describe") and result.get("decisive"):
        lines += [_(DECISIVE)] + [
            "  " + decisive_line(screen, event) for event in (game.view(None)["history"][i] for i in result["decisive"])
        ]
    if screen is not None and hasattr(screen, "summary"):
        lines += screen.summary(game)
    return lines


def decisive_line(screen: Any, event: dict[str, Any]) -> str:
    """A decisive move, told as the game's log tells it."""
    return screen.describe(event.get("seat"), {"type": event["type"]}, [event])

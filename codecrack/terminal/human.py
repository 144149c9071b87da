"""A human seat at the terminal: shows the seat's view, reads a command, retries on errors."""

from __future__ import annotations

import json
from typing import Any, Callable

from rich.console import Console
from rich.pretty import Pretty
from rich.table import Table

from ..agents.base import Agent
from ..core.errors import IllegalAction
from ..core.registry import optional_module


def game_screen(game: str):
    """The game's terminal module (``render``, ``parse``, ``describe``), or ``None``."""
    return optional_module(f"codecrack.terminal.{game}")


def render_view(game: str, view: dict[str, Any]):
    screen = game_screen(game)
    if screen is not None:
        return screen.render(view)
    return Pretty({k: v for k, v in view.items() if k != "legal_actions"})


MENU_ROWS = 40


def action_menu(actions: list[dict[str, Any]]) -> Table:
    """The first legal actions, numbered; long lists are cut with a count of the rest."""
    table = Table(title="Legal actions (type the number)", show_header=False, box=None)
    for number, action in enumerate(actions[:MENU_ROWS], 1):
        table.add_row(str(number), json.dumps(action))
    if len(actions) > MENU_ROWS:
        table.add_row("...", f"{len(actions) - MENU_ROWS} more; type the game's short command instead")
    return table


class TerminalHuman(Agent):
    """Reads actions from a console. Type a game command, a number from ``?``, or JSON."""

    name = "human"
    reaction_delay = float("inf")

    def __init__(self, game: str, console: Console, read: Callable[[str], str] | None = None,
                 seed: int = 0) -> None:
        super().__init__(seed)
        self.game = game
        self.console = console
        self.read = read or (lambda prompt: console.input(prompt))

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        self.console.print(render_view(self.game, view))
        legal = view["legal_actions"]
        while True:
            text = self.read(f"[bold]seat {view.get('seat')}>[/bold] ").strip()
            try:
                action = self.parse(text, view)
            except IllegalAction as error:
                self.console.print(f"[red]{error}[/red]")
                continue
            if action is None:
                self.console.print(action_menu(legal))
                continue
            if action not in legal and not self._accepts_unlisted(action):
                self.console.print(f"[red]not a legal action now: {json.dumps(action)}[/red] (type ? for the list)")
                continue
            return action

    def parse(self, text: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """``?``/empty: show the menu; a number: that menu entry; JSON; else the game's parser."""
        legal = view["legal_actions"]
        if text in ("", "?", "help"):
            return None
        if text.isdigit():
            index = int(text) - 1
            if not 0 <= index < len(legal):
                raise IllegalAction(f"choose a number from 1 to {len(legal)}")
            return legal[index]
        if text.startswith("{"):
            try:
                return json.loads(text)
            except json.JSONDecodeError as error:
                raise IllegalAction(f"bad JSON: {error}") from None
        screen = game_screen(self.game)
        if screen is None or not hasattr(screen, "parse"):
            raise IllegalAction(f"unknown command {text!r}; type ? for the legal actions")
        return screen.parse(text, view)

    def _accepts_unlisted(self, action: dict[str, Any]) -> bool:
        screen = game_screen(self.game)
        return bool(screen is not None and getattr(screen, "FREE_FORM_ACTIONS", set()) & {action.get("type")})

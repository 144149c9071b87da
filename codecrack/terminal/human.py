"""A human seat at the terminal: shows the seat's view, reads a command, retries on errors."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.pretty import Pretty
from rich.text import Text

from ..core.agent import Agent
from ..core.errors import IllegalAction, explain
from ..core.registry import game_module
from ..i18n import N_, _
from .seats import seat_name


def game_screen(game: str):
    """The game's terminal screen (``render``, ``parse``, ``describe``): its package's ``screen``
    module, or ``None``."""
    return game_module(game, "screen")


def render_view(game: str, view: dict[str, Any]):
    screen = game_screen(game)
    if screen is not None:
        return screen.render(view)
    return Pretty({k: v for k, v in view.items() if k != "legal_actions"})


HOST_ACTIONS = {"timeout"}  # sent by the host's clock, never typed
MENU_TITLE = N_("Legal actions (type one of these commands)")
NOT_LEGAL = N_("{text} is not a legal move now; type ? for your moves")
NOTHING_TO_DO = N_("nothing: wait for the other players")


def action_menu(game: str, view: dict[str, Any]) -> Panel:
    """Every legal action in the game's own short commands, grouped (a game without a terminal
    module: by action type, with the values each field may take)."""
    legal = [action for action in view["legal_actions"] if action["type"] not in HOST_ACTIONS]
    screen = game_screen(game)
    lines = screen.menu(legal, view) if screen is not None and hasattr(screen, "menu") else generic_menu(legal)
    return Panel("\n".join(lines) or _(NOTHING_TO_DO), title=_(MENU_TITLE), title_align="left")


def generic_menu(legal: list[dict[str, Any]]) -> list[str]:
    """One line per action type: ``add amount=1|2|3`` (the values each field takes)."""
    fields: dict[str, dict[str, list[str]]] = {}
    for action in legal:
        values = fields.setdefault(action["type"], {})
        for key, value in action.items():
            if key != "type":
                shown = values.setdefault(key, [])
                if str(value) not in shown:
                    shown.append(str(value))
    return [
        " ".join([kind, *(f"{key}={'|'.join(values)}" for key, values in keys.items())])
        for kind, keys in fields.items()
    ]


class TerminalHuman(Agent):
    """Reads actions from a console. Type a game command (``?`` lists them) or JSON."""

    name = "human"
    reaction_delay = float("inf")

    def __init__(self, game: str, console: Console, read: Callable[[str], str] | None = None, seed: int = 0) -> None:
        super().__init__(seed)
        self.game = game
        self.console = console
        self.read = read or (lambda prompt: console.input(prompt))
        self.refusal: str | None = None  # why the engine refused this human's last move

    def refused(self, error: IllegalAction) -> None:
        """The engine refused the move just typed (a free-form one, such as a declaration the step
        does not allow): the game is unchanged; say why with the next prompt."""
        self.refusal = explain(error)

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        self.console.print(render_view(self.game, view))
        if self.refusal is not None:
            self.console.print(Text(self.refusal, style="red"))
            self.refusal = None
        legal = view["legal_actions"]
        while True:
            text = self.read(f"[bold]{seat_name(view['seat'])}>[/bold] ").strip()
            try:
                action = self.parse(text, view)
            except IllegalAction as error:
                self.console.print(f"[red]{explain(error)}[/red]")
                continue
            if action is None:
                self.console.print(action_menu(self.game, view))
                continue
            if action not in legal and not self._accepts_unlisted(action):
                self.console.print(Text(_(NOT_LEGAL).format(text=repr(text)), style="red"))
                continue
            return action

    def parse(self, text: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """``?``/empty: show the menu; a number N: the N-th legal action (a shortcut for scripts);
        JSON; else the game's parser."""
        legal = view["legal_actions"]
        if text in ("", "?", "help"):
            return None
        if text.isdecimal():
            index = int(text) - 1
            if not 0 <= index < len(legal):
                raise IllegalAction(_("choose a number from 1 to {count}").format(count=len(legal)))
            return legal[index]
        if text.startswith("{"):
            try:
                return json.loads(text)
            except json.JSONDecodeError as error:
                raise IllegalAction(_("bad JSON: {error}").format(error=error)) from None
        screen = game_screen(self.game)
        if screen is None or not hasattr(screen, "parse"):
            raise IllegalAction(_("unknown command {text}; type ? for the legal actions").format(text=repr(text)))
        return screen.parse(text, view)

    def _accepts_unlisted(self, action: dict[str, Any]) -> bool:
        screen = game_screen(self.game)
        return bool(screen is not None and getattr(screen, "FREE_FORM_ACTIONS", set()) & {action.get("type")})


def ask_again(agents: Mapping[int, Agent]) -> Callable[[int, IllegalAction], bool]:
    """``run_game``'s ``on_refused`` hook at the terminal: a human's refused move is explained and
    the human asked again; a bot's refused move still ends the run."""

    def hook(seat: int, error: IllegalAction) -> bool:
        agent = agents[seat]
        if isinstance(agent, TerminalHuman):
            agent.refused(error)
            return True
        return False

    return hook

"""Real-time play of The Coding's speed mode at the terminal.

Humans slap by typing ``s`` + Enter (``p`` passes); each bot acts once its ``reaction_delay``
has passed since the table last changed, unless a human acted first. A human slapper must answer
within the ``answer_window``; otherwise this host sends ``timeout`` (the hesitation foul). Only
this host reads the clock: the engine receives plain actions.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from rich.console import Console

from ...core.agent import Agent
from ...core.errors import IllegalAction, explain
from ...core.game import Game
from ...core.runner import next_actor, run_game
from ...i18n import _
from ...terminal.human import TerminalHuman, ask_again
from ...terminal.seats import seat_list, shown
from .rules import CodingGame


class InputChannel:
    """Lines typed at the terminal, read by a background thread so that waits can time out.

    The thread reads a line only when the game asks for one; a line that arrives after a wait
    timed out is kept for the next request.
    """

    def __init__(self, read: Callable[[str], str], console: Console) -> None:
        self.console = console
        self.lines: queue.Queue[str | BaseException] = queue.Queue()
        self.requests = threading.Semaphore(0)
        self.outstanding = False  # a line has been asked for and not yet taken
        threading.Thread(target=self._pump, args=(read,), daemon=True).start()

    def _pump(self, read: Callable[[str], str]) -> None:
        while True:
            self.requests.acquire()
            try:
                self.lines.put(read(""))
            except BaseException as error:  # EOF or Ctrl-C: hand it to the game loop
                self.lines.put(error)
                return

    def get(self, timeout: float | None = None) -> str | None:
        """The next line, or ``None`` if ``timeout`` seconds pass first."""
        if not self.outstanding:
            self.outstanding = True
            self.requests.release()
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(line, BaseException):
            self.lines.put(line)  # keep failing on later reads too
            raise line
        self.outstanding = False
        return line

    def read(self, prompt: str) -> str:
        """A blocking read, used by the human agents for the turn-based steps."""
        self.console.print(prompt, end="")
        line = self.get()
        assert line is not None, "a read with no timeout waits for its line"
        return line


class Screen(NamedTuple):
    """The Coding's screen functions (:mod:`.screen`), which the real-time host shows its game with."""

    describe: Callable[[int, dict[str, Any], list[dict[str, Any]]], str]
    parse: Callable[[str, dict[str, Any]], dict[str, Any]]
    render: Callable[[dict[str, Any]], Any]


class SpeedHost:
    """Runs one game, handling speed mode's slap window and answer window in real time."""

    def __init__(
        self,
        game: CodingGame,
        agents: Mapping[int, Agent],
        console: Console,
        screen: Screen,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.describe, self.parse, self.render = screen.describe, screen.parse, screen.render
        self.game, self.agents, self.console, self.clock = game, dict(agents), console, clock
        humans = {seat: agent for seat, agent in agents.items() if isinstance(agent, TerminalHuman)}
        self.humans = set(humans)
        self.channel = InputChannel(humans[min(humans)].read, console)
        for human in humans.values():
            human.read = self.channel.read
        self.since = clock()  # when the table last changed (bots' delays count from here)

    def apply(self, seat: int, action: dict[str, Any]) -> None:
        events = self.game.apply(seat, action)
        self.console.print(self.describe(seat, action, events))
        if any(event["type"] not in ("pass", "chose_reveal") for event in events):
            self.since = self.clock()
            self._show_humans()

    def _show_humans(self) -> None:
        if self.game.step == "open" and not self.game.over:
            for seat in sorted(self.humans & self.game.to_move):
                self.console.print(self.render(self.game.view(seat)))

    def run(self) -> None:
        self._show_humans()
        while not self.game.over:
            if self.game.step == "open":
                self._open_step()
                continue
            seat = next_actor(self.game, self.agents)
            if self.game.step == "answer" and seat in self.humans:
                self._human_answer(seat)
            else:
                self._turn(seat)

    def _turn(self, seat: int) -> None:
        """A turn-based step: the seat's agent acts; a human's move the engine refuses is
        explained and asked again (the game is unchanged)."""
        action = self.agents[seat].act(self.game.view(seat))
        try:
            self.apply(seat, action)
        except IllegalAction as error:
            if not ask_again(self.agents)(seat, error):
                raise

    def _open_step(self) -> None:
        # A bot that passed is not asked again until the table changes; a human who passed may
        # still slap at any moment.
        bots = sorted(self.game.awaited - self.humans, key=lambda s: (self.agents[s].reaction_delay, s))
        waiting = sorted(self.humans & self.game.to_move)
        if not waiting:
            self.apply(bots[0], self.agents[bots[0]].act(self.game.view(bots[0])))
            return
        wait = None if not bots else max(0.0, self.since + self.agents[bots[0]].reaction_delay - self.clock())
        line = self.channel.get(wait)
        if line is None:
            self.apply(bots[0], self.agents[bots[0]].act(self.game.view(bots[0])))
            return
        self._human_open_command(line, waiting)

    def _human_open_command(self, line: str, waiting: list[int]) -> None:
        """``s``/``p``, optionally followed by the seat (from 1, as shown) when several humans
        share the terminal."""
        words = line.split()
        seat = waiting[0]
        if len(words) == 2 and words[1].isdecimal():
            seat = int(words[1]) - 1
            words = words[:1]
        try:
            if seat not in waiting:
                raise IllegalAction(
                    _("seat {seat} is not a human seat that may act now ({waiting})").format(
                        seat=shown(seat), waiting=seat_list(waiting)
                    )
                )
            self.apply(seat, self.parse(" ".join(words), self.game.view(seat)))
        except IllegalAction as error:
            self.console.print(f"[red]{explain(error)}[/red]")

    def _human_answer(self, seat: int) -> None:
        window = self.game.options.answer_window
        deadline = self.clock() + window
        view = self.game.view(seat)
        self.console.print(self.render(view))
        self.console.print(
            f"[bold]{_('seat {seat}: you slapped! decode SEAT CODE within {seconds} s').format(seat=shown(seat), seconds=f'{window:g}')}[/bold]"
        )
        while True:
            line = self.channel.get(max(0.0, deadline - self.clock()))
            if line is None:
                self.apply(seat, {"type": "timeout"})
                return
            try:
                action = self.parse(line, view)
                if action["type"] != "decode":
                    raise IllegalAction(_("answer with: decode SEAT CODE"))
                self.apply(seat, action)
                return
            except IllegalAction as error:
                self.console.print(f"[red]{explain(error)}[/red]")


def run_realtime(game: Game, agents: Mapping[int, Agent], console: Console, screen: Screen) -> None:
    """Play to the end: in speed mode with a human, in real time; otherwise the usual loop."""
    humans = [seat for seat, agent in agents.items() if isinstance(agent, TerminalHuman)]
    if not isinstance(game, CodingGame) or game.options.mode != "speed" or not humans:
        run_game(
            game,
            agents,
            on_step=lambda s, a, e: console.print(screen.describe(s, a, e)),
            on_refused=ask_again(agents),
        )
        return
    SpeedHost(game, agents, console, screen).run()

"""``ProcessAgent``: an arena seat played by any program that speaks the protocol."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.agent import Agent
from ..core.errors import OptionError
from ..core.game import Game
from .messages import Act, ActionReply, Hello, Ping, Pong, ProtocolError, Quit, bot_message
from .process import BotFault, BotProcess, Limits

COMMAND_PREFIX = "cmd:"


def is_command(name: str) -> bool:
    """Whether an agent name asks for an external program (``cmd:python my_bot.py``)."""
    return name.startswith(COMMAND_PREFIX)


def command_argv(name: str) -> list[str]:
    """The program and arguments of a ``cmd:`` agent name, split as a POSIX shell would."""
    try:
        argv = shlex.split(name[len(COMMAND_PREFIX) :])
    except ValueError as error:
        raise OptionError(f"cannot read the command of agent {name!r}: {error}") from None
    if not argv:
        raise OptionError(f"agent {name!r} names no command")
    return argv


class ProcessAgent(Agent):
    """Starts the bot, greets it with the game, its options and the seat, and checks it answers a
    ping; then each ``act`` sends the seat's view and reads one action. Every failure is a
    :class:`BotFault` that names the seat. ``close`` ends the process in every case."""

    name = "cmd"

    def __init__(self, name: str, game: Game, seat: int, limits: Limits = Limits()) -> None:
        super().__init__(0)
        self.seat, self.limits = seat, limits
        self.requests = 0
        argv = command_argv(name)
        with self._blamed():
            self.bot = BotProcess(argv, limits)
        try:
            with self._blamed():
                self._greet(game)
        except BotFault:
            self.bot.close()
            raise

    @property
    def _limit_ms(self) -> int:
        return round(self.limits.move_s * 1000)

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        self.requests += 1
        with self._blamed():
            request = Act(id=self.requests, view=view, time_limit_ms=self._limit_ms)
            reply = self._answer(self.bot.exchange(request, self.limits.move_s))
            if not (isinstance(reply, ActionReply) and reply.id == request.id):
                raise self.bot.fault("protocol", f"answered {_described(reply)} to act {request.id}")
            return reply.action

    def close(self, result: dict[str, Any] | None = None) -> None:
        """Send ``quit`` (with the result when the game ended) and end the process."""
        self.bot.close(Quit(result=result))

    def _greet(self, game: Game) -> None:
        """Hello, then a ping that must come back within the start-up limit."""
        hello = Hello(
            game=game.name,
            players=game.players,
            options=game.options.model_dump(mode="json"),
            seat=self.seat,
            time_limit_ms=self._limit_ms,
        )
        self.bot.send(hello, self.limits.start_s)
        reply = self._answer(self.bot.exchange(Ping(id=0), self.limits.start_s))
        if not (isinstance(reply, Pong) and reply.id == 0):
            raise self.bot.fault("protocol", f"answered {_described(reply)} to ping 0")

    def _answer(self, line: bytes):
        try:
            return bot_message(line)
        except ProtocolError as error:
            raise self.bot.fault("protocol", f"sent an invalid message ({error})") from None

    @contextmanager
    def _blamed(self) -> Iterator[None]:
        """Tag a fault with this seat."""
        try:
            yield
        except BotFault as fault:
            fault.seat = self.seat
            raise


def _described(reply: Pong | ActionReply) -> str:
    return f"{reply.type} {reply.id}"

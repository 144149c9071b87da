"""The bot side of the protocol, serving one of codecrack's own agents (``codecrack bot``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from ..agents import Agent, make_agent
from .messages import ActionReply, Hello, Message, Ping, Pong, ProtocolError, Quit, encode, host_message

AgentMaker = Callable[[Hello], Agent]


def serve(make: AgentMaker, reader: TextIO | None = None, writer: TextIO | None = None) -> None:
    """Answer the host's messages (from stdin, to stdout by default) until ``quit`` or the end
    of input. A message the protocol does not allow here raises :class:`ProtocolError`."""
    reader, writer = reader or sys.stdin, writer or sys.stdout
    agent: Agent | None = None
    for line in reader:
        message = host_message(line)
        if isinstance(message, Quit):
            return
        if isinstance(message, Hello):
            agent = make(message)
        elif isinstance(message, Ping):
            _say(writer, Pong(id=message.id))
        elif agent is None:
            raise ProtocolError("'act' came before 'hello'")
        else:
            _say(writer, ActionReply(id=message.id, action=agent.act(message.view)))


def _say(writer: TextIO, message: Message) -> None:
    writer.write(encode(message).decode())
    writer.flush()


def agent_maker(game: str, level: str, seed: int) -> AgentMaker:
    """Checks ``game`` and ``level`` now, then builds the agent for each ``hello``, which must
    name the same game."""
    make_agent(level, game, seed=seed)

    def make(hello: Hello) -> Agent:
        if hello.game != game:
            raise ProtocolError(f"this bot plays {game}, not {hello.game}")
        return make_agent(level, game, seed=seed)

    return make

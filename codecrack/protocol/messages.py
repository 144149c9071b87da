"""The protocol's messages: one JSON object per line, told apart by ``type``.

>>> host_message('{"type": "ping", "id": 3}')
Ping(type='ping', id=3)
>>> bot_message('{"type": "action", "id": 1, "action": {"type": "stop"}}').action
{'type': 'stop'}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

PROTOCOL_VERSION = 1


def _type_is_required(schema: dict[str, Any]) -> None:
    """Every message carries its ``type``, though the models fill it in by default."""
    schema["required"] = ["type", *schema.get("required", [])]


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_type_is_required)


class Hello(Message):
    """First message of a game: the game, its options, the bot's seat and the time limit per
    answer. No seed: the deal follows from the game's seed, so no bot receives one or anything
    derived from it."""

    type: Literal["hello"] = "hello"
    protocol: int = PROTOCOL_VERSION
    game: str
    players: int
    options: dict[str, Any]
    seat: int
    time_limit_ms: int = Field(description="The limit on each answer, in milliseconds.")


class Ping(Message):
    """The bot answers at once with a pong carrying the same id."""

    type: Literal["ping"] = "ping"
    id: int


class Act(Message):
    """The bot's seat must act: view is exactly the seat's view, its legal_actions included."""

    type: Literal["act"] = "act"
    id: int = Field(description="Numbers the requests of a game: 1, 2, ... The answer repeats it.")
    view: dict[str, Any]
    time_limit_ms: int


class Quit(Message):
    """The game is over: result is its result (a forfeit names the faulty seat), or null when the
    host stops early. The bot exits."""

    type: Literal["quit"] = "quit"
    result: dict[str, Any] | None = None


class Pong(Message):
    type: Literal["pong"] = "pong"
    id: int


class ActionReply(Message):
    """The bot's answer to act: one of the view's legal_actions, with the act's id."""

    type: Literal["action"] = "action"
    id: int
    action: dict[str, Any]


HostMessage = Annotated[Hello | Ping | Act | Quit, Field(discriminator="type")]
BotMessage = Annotated[Pong | ActionReply, Field(discriminator="type")]
_HOST = TypeAdapter(HostMessage)
_BOT = TypeAdapter(BotMessage)


class ProtocolError(ValueError):
    """A line that is not a valid message of the protocol."""


def _parse(adapter: TypeAdapter, line: str | bytes) -> Any:
    try:
        return adapter.validate_json(line)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in error.errors()[:3]
        )
        raise ProtocolError(problems) from None


def host_message(line: str | bytes) -> Hello | Ping | Act | Quit:
    """Parse one line that a host sent."""
    return _parse(_HOST, line)


def bot_message(line: str | bytes) -> Pong | ActionReply:
    """Parse one line that a bot sent."""
    return _parse(_BOT, line)


def encode(message: Message) -> bytes:
    """One message as a line of compact JSON."""
    return message.model_dump_json().encode() + b"\n"


def json_schemas() -> dict[str, Any]:
    """The JSON Schema of every message each side may send (docs/protocol.md embeds it)."""
    return {"host_to_bot": _HOST.json_schema(), "bot_to_host": _BOT.json_schema()}

"""Wire formats. A bot protocol on stdio: JSON lines between a host (the arena) and a bot (any program).

The host sends ``hello`` (game, options, seat, time limit) and a ``ping``; the bot answers
``pong``. Each time the bot's seat must act, the host sends ``act`` with exactly that seat's view
and the bot answers ``action``. ``quit`` ends the game. docs/protocol.md has the schemas.
State deltas (:mod:`.deltas`): what changed in a view, as the web server sends it and its clients apply it.
"""

from .agent import ProcessAgent, is_command
from .bot import serve
from .messages import PROTOCOL_VERSION, ProtocolError, bot_message, host_message, json_schemas
from .process import BotFault, Limits

__all__ = [
    "PROTOCOL_VERSION",
    "BotFault",
    "Limits",
    "ProcessAgent",
    "ProtocolError",
    "bot_message",
    "host_message",
    "is_command",
    "json_schemas",
    "serve",
]

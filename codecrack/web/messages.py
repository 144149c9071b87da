"""Every message the server sends on a websocket, built here and typed as
:data:`codecrack.web.schema.ServerMessage` describes them (one ``TypedDict`` per ``type``)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Summary = dict[str, Any]  # a table's public facts: summaries.table_summary


class Hello(TypedDict):
    type: Literal["hello"]
    seat: int | None
    table: Summary


class State(TypedDict):
    type: Literal["state"]
    step: int
    view: dict[str, Any]
    clock: dict[str, Any] | None


class Delta(TypedDict):
    type: Literal["delta"]
    base: int
    step: int
    changes: list[Any]
    clock: dict[str, Any] | None


class TableNotice(TypedDict):
    type: Literal["table"]
    table: Summary


class Error(TypedDict):
    type: Literal["error"]
    message: str
    ref: NotRequired[str]


class Hint(TypedDict):
    type: Literal["hint"]
    step: int
    hint: dict[str, Any] | None


class Rematch(TypedDict):
    type: Literal["rematch"]
    code: str


class Invite(TypedDict):
    type: Literal["invite"]
    invite: str


class RatingChange(TypedDict):
    seat: int
    before: int
    after: int
    provisional: bool  # fewer than 10 rated games: shown with "?"


class Rated(TypedDict):
    type: Literal["rated"]
    changes: list[RatingChange]


class Pong(TypedDict):
    type: Literal["pong"]


ChatKind = Literal["phrase", "text", "off", "on"]


class ChatLine(TypedDict):
    id: int
    seat: int | None  # None: a spectator
    name: str
    kind: ChatKind
    body: str  # the phrase's key, the text, or "" for a switch


class Chat(TypedDict):
    type: Literal["chat"]
    lines: list[ChatLine]
    off: bool


ServerMessage = Hello | State | Delta | TableNotice | Error | Hint | Rematch | Invite | Rated | Pong | Chat


def hello(seat: int | None, table: Summary) -> Hello:
    return {"type": "hello", "seat": seat, "table": table}


def state(step: int, view: dict[str, Any], clock: dict[str, Any] | None) -> State:
    """A seat's whole view after ``step`` actions (on connect and resync)."""
    return {"type": "state", "step": step, "view": view, "clock": clock}


def delta(base: int, step: int, changes: list[Any], clock: dict[str, Any] | None) -> Delta:
    """What changed in a seat's view from the one sent at step ``base`` to ``step``."""
    return {"type": "delta", "base": base, "step": step, "changes": changes, "clock": clock}


def table_notice(table: Summary) -> TableNotice:
    return {"type": "table", "table": table}


def error(message: str, ref: str | None = None) -> Error:
    """An error in the reader's language; ``ref``: the refused action's, if it carried one."""
    return {"type": "error", "message": message} if ref is None else {"type": "error", "message": message, "ref": ref}


def hint(step: int, found: dict[str, Any] | None) -> Hint:
    return {"type": "hint", "step": step, "hint": found}


def rematch(code: str) -> Rematch:
    return {"type": "rematch", "code": code}


def invite(secret: str) -> Invite:
    """A friends' table's new invitation (renewed): for its seated players' connections only."""
    return {"type": "invite", "invite": secret}


def rated(changes: list[RatingChange]) -> Rated:
    """The finished game's rating changes, one per account's seat (players/ratings.py)."""
    return {"type": "rated", "changes": changes}


def pong() -> Pong:
    return {"type": "pong"}


def chat(lines: list[ChatLine], off: bool) -> Chat:
    """Chat lines this connection may read (a new one, or those said before it came), and
    whether the table's chat is off now."""
    return {"type": "chat", "lines": lines, "off": off}

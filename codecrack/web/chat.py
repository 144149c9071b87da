"""Table chat: players talk with players, spectators with spectators.

- Who reads what: a seat's lines go to everyone at the table; a spectator's go to the spectators,
  and to the players only once the game is over (no help from the audience). A switch (a seated
  player turning the chat off or on) goes to everyone.
- What may be said: one of the quick phrases (:data:`PHRASES`, each translated by the reader's
  page) or a text of at most ``chat_length`` characters without control characters, at most
  ``chat_per_minute`` lines a minute per connection (after a burst of :data:`BURST`). The server
  stores and sends the text as it was typed; pages show it as text, never as markup.
- Muting is the reader's own: a connection names the seats (or the spectators) whose lines it is
  not sent; the page remembers them and names them again when it reconnects.
- Every line is stored with its table (``chat_lines``); a switch is a line too, so the chat is off
  when the table's latest switch says so. A line said on one instance reaches the connections of
  the others through the fan-out (``Fanout.said``).
"""

from __future__ import annotations

import asyncio
import logging
import unicodedata
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary, WeakSet

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection as Db
from sqlalchemy.engine import Engine

from ..i18n import _
from . import messages
from .limits import TokenBucket
from .store import chat_lines, now

if TYPE_CHECKING:
    from .config import WebConfig
    from .connections import Connection
    from .fanout import Fanout
    from .table import LiveTable
    from .writer import Writer

log = logging.getLogger("codecrack.web")

PHRASES = ("hello", "good_luck", "have_fun", "thinking", "nice_move", "oops", "thanks", "well_played", "good_game")
MAX_CHAT = 500  # characters of a chat line the protocol accepts at most (the server's limit may be lower)
BURST = 3  # chat lines a connection may send at once before the per-minute rate applies
HISTORY = 100  # the latest lines a joining connection is sent
SWITCHES = ("off", "on")
NOBODY: frozenset[int | None] = frozenset()  # muted by a connection that never chose
BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")  # would reorder the page's text


def clean_text(text: str, limit: int) -> str:
    """``text`` without surrounding blanks; :class:`ValueError` (the reader's words) when it is
    empty, longer than ``limit`` characters, or holds control characters.

    >>> clean_text("  gg  ", 10)
    'gg'
    """
    text = text.strip()
    if not text:
        raise ValueError(_("say something: the text is empty"))
    if len(text) > limit:
        raise ValueError(_("a chat line has at most {count} characters").format(count=limit))
    if any(unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS for c in text):
        raise ValueError(_("a chat line cannot hold control characters or line breaks"))
    return text


def readable(line: messages.ChatLine, seat: int | None, over: bool, muted: AbstractSet[int | None]) -> bool:
    """Whether a connection of ``seat`` (``None``: a spectator) is sent ``line``."""
    if line["kind"] in SWITCHES:
        return True
    if line["seat"] in muted:
        return False
    return not (line["seat"] is None and seat is not None and not over)


def add_line(
    db: Db, code: str, seat: int | None, name: str, kind: messages.ChatKind, body: str
) -> messages.ChatLine | None:
    """Store a line (``None``, nothing stored, if it is said while the table's chat is off)."""
    if kind not in SWITCHES and chat_off(db, code):
        return None
    found = db.execute(
        insert(chat_lines)
        .values(table_code=code, at=now(), seat=seat, name=name, kind=kind, body=body)
        .returning(chat_lines.c.id)
    )
    return {"id": found.scalar_one(), "seat": seat, "name": name, "kind": kind, "body": body}


def chat_off(db: Db, code: str) -> bool:
    latest = db.execute(
        select(chat_lines.c.kind)
        .where(chat_lines.c.table_code == code, chat_lines.c.kind.in_(SWITCHES))
        .order_by(chat_lines.c.id.desc())
        .limit(1)
    ).scalar()
    return latest == "off"


def switched_off(latest: Sequence[Mapping[Any, Any]], complete: bool) -> bool | None:
    """Whether the chat is off, told by a table's latest lines of every kind (the newest first):
    by the latest switch among them, or, when they are all its lines (``complete``), by there being
    none; ``None`` when they do not tell (:func:`chat_off` asks the database).

    >>> switched_off([{"kind": "text"}, {"kind": "off"}, {"kind": "on"}], complete=False)
    True
    >>> switched_off([{"kind": "text"}], complete=True), switched_off([{"kind": "text"}], complete=False)
    (False, None)
    """
    for line in latest:
        if line["kind"] in SWITCHES:
            return line["kind"] == "off"
    return False if complete else None


def read_lines(engine: Engine, code: str, spectators_only: bool = False) -> tuple[list[messages.ChatLine], bool]:
    """The table's latest :data:`HISTORY` lines (or its spectators' only), the oldest first, and
    whether its chat is off."""
    query = select(chat_lines).where(chat_lines.c.table_code == code)
    if spectators_only:
        query = query.where(chat_lines.c.seat.is_(None), chat_lines.c.kind.not_in(SWITCHES))
    with engine.connect() as db:
        rows = db.execute(query.order_by(chat_lines.c.id.desc()).limit(HISTORY)).mappings().all()
        off = None if spectators_only else switched_off(rows, complete=len(rows) < HISTORY)
        if off is None:
            off = chat_off(db, code)
    lines: list[messages.ChatLine] = [
        {"id": r["id"], "seat": r["seat"], "name": r["name"], "kind": r["kind"], "body": r["body"]}
        for r in reversed(rows)
    ]
    return lines, off


@dataclass
class Talker:
    """One connection's side of the chat: its rate and whom it muted."""

    bucket: TokenBucket
    muted: set[int | None] = field(default_factory=set)


class TableChat:
    """The chat of every table of one server (``hub.chat``)."""

    def __init__(self, config: WebConfig, engine: Engine, writer: Writer, fanout: Fanout) -> None:
        self.config = config
        self.engine = engine
        self.writer = writer
        self.fanout = fanout
        self.talkers: WeakKeyDictionary[Connection, Talker] = WeakKeyDictionary()
        self.tasks: set[asyncio.Task] = set()
        self.quiet: WeakSet[LiveTable] = WeakSet()  # tables opened here, with no line said yet

    def opened(self, table: LiveTable) -> None:
        """``table`` was just made (stored a moment ago): nothing was said there yet, so neither a
        greeting nor its end reads the database until a line comes (:meth:`deliver`)."""
        self.quiet.add(table)

    def talker(self, connection: Connection) -> Talker:
        found = self.talkers.get(connection)
        if found is None:
            clock = asyncio.get_running_loop().time()
            found = self.talkers[connection] = Talker(TokenBucket(self.config.chat_per_minute / 60, BURST, clock))
        return found

    async def greet(self, table: LiveTable, connection: Connection) -> None:
        """Send a new connection the lines said before it came (those it may read), if any; none
        if the database cannot be read (the game goes on)."""
        if table in self.quiet:
            return
        try:
            lines, off = await asyncio.to_thread(read_lines, self.engine, table.code)
        except Exception:
            log.exception("could not read the chat of table %s", table.code)
            return
        talker = self.talkers.get(connection)  # none made for a connection that only reads (an idle socket)
        muted = talker.muted if talker is not None else NOBODY
        shown = [line for line in lines if readable(line, connection.seat, table.over, muted)]
        if shown or off:  # nothing to tell: no message (a page starts with an empty chat, on)
            connection.push(messages.chat(shown, off))

    async def say(self, table: LiveTable, connection: Connection, phrase: str | None, text: str | None) -> str | None:
        """Store and send ``connection``'s line; the reason (the reader's words) if it is refused."""
        said: tuple[messages.ChatKind, str]
        if phrase is not None and text is None:
            said = ("phrase", phrase)
        elif text is not None and phrase is None:
            try:
                said = ("text", clean_text(text, self.config.chat_length))
            except ValueError as error:
                return str(error)
        else:
            return _("say a phrase or a text, not both")
        if not self.talker(connection).bucket.take(asyncio.get_running_loop().time()):
            return _("too many chat lines: at most {count} a minute").format(count=f"{self.config.chat_per_minute:g}")
        return await self._add(table, connection.seat, *said)

    async def switch(self, table: LiveTable, connection: Connection, off: bool) -> str | None:
        """A seated player turns the table's chat off or on; the reason if it is refused."""
        if connection.seat is None:
            return _("only the players can turn the chat off or on")
        if not self.talker(connection).bucket.take(asyncio.get_running_loop().time()):
            return _("too many chat lines: at most {count} a minute").format(count=f"{self.config.chat_per_minute:g}")
        return await self._add(table, connection.seat, "off" if off else "on", "")

    async def _add(self, table: LiveTable, seat: int | None, kind: messages.ChatKind, body: str) -> str | None:
        name = "" if seat is None else table.names().get(seat) or table.row.seats[seat].get("name") or ""
        line = await self.writer.write(add_line, table.code, seat, name, kind, body)
        if line is None:
            return _("the chat is off at this table")
        off = kind == "off"  # a line said is said while the chat is on
        self.deliver(table, line, off)
        self.fanout.said(table, line, off)
        return None

    def mute(self, connection: Connection, seat: int | None, muted: bool) -> None:
        chosen = self.talker(connection).muted
        if muted:
            chosen.add(seat)
        else:
            chosen.discard(seat)

    def deliver(self, table: LiveTable, line: messages.ChatLine, off: bool) -> None:
        """Send ``line`` to the connections here that may read it."""
        self.quiet.discard(table)
        over = table.over
        for connection in list(table.connections):
            talker = self.talkers.get(connection)
            if readable(line, connection.seat, over, talker.muted if talker else set()):
                connection.push(messages.chat([line], off))

    def ended(self, table: LiveTable) -> None:
        """The game is over: the players here are sent what the spectators said meanwhile."""
        if table not in self.quiet and any(connection.seat is not None for connection in table.connections):
            task = asyncio.get_running_loop().create_task(self._show_spectators(table))
            self.tasks.add(task)
            task.add_done_callback(self._done)

    async def _show_spectators(self, table: LiveTable) -> None:
        lines, off = await asyncio.to_thread(read_lines, self.engine, table.code, True)
        if not lines:
            return
        for connection in list(table.connections):
            if connection.seat is None:
                continue
            talker = self.talkers.get(connection)
            shown = [line for line in lines if readable(line, connection.seat, True, talker.muted if talker else set())]
            if shown:
                connection.push(messages.chat(shown, off))

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("could not show the spectators' chat to the players", exc_info=task.exception())

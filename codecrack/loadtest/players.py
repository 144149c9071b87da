"""Simulated players: each table is created over HTTP, its human seats are claimed and each one is
played by a websocket client that picks a random legal action (seeded), flat out or at human pace.

As guests (no session: tables never rated), or as accounts (:class:`Browser`): each human seat of a
slot is an account made through the API as a page makes one (a guest, then a handle and password),
then signed in from a fresh cookie jar, as a returning player; its tables are created and joined
with its session, so they are rated (the first installed game's default options are a preset) and
each game's end waits for the server's ``rated`` message."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect

from ..core.registry import GAMES
from ..protocol.deltas import followed

Json = dict[str, Any]
RESYNC = json.dumps({"type": "resync"})
# websocket handshakes in flight per client process: thousands begun at once outrun the process's
# own event loop, whose requests then reach the server after its header timeout (it closes a
# connection that says nothing for that long: web/guard.py), and overflow the listen backlog
OPENING_AT_ONCE = 64
GREETING_SECONDS = 120.0  # a new socket's wait for its seat's first state, once it said hello


@dataclass
class Tally:
    """What every player of one load step observed."""

    latencies: list[float] = field(default_factory=list)  # send -> own next state, seconds
    errors: dict[str, int] = field(default_factory=dict)  # message -> count
    games_valid: int = 0
    games_invalid: list[str] = field(default_factory=list)
    games_cut: int = 0  # still playing when the step's time was up
    received_bytes: int = 0  # every message the players received, as it travelled
    games_rated: int = 0  # of the valid games, those whose ratings changed (played as accounts)

    def error(self, message: str) -> None:
        self.errors[message] = self.errors.get(message, 0) + 1


@dataclass
class Pace:
    """Flat out (no pause), or a pause drawn in [low, high] seconds before each action. Every
    connection sends at most ``per_second`` messages (the server's per-connection limit; each
    action is one message)."""

    low: float = 0.0
    high: float = 0.0
    per_second: float = 20.0

    def pause(self, rng: random.Random) -> float:
        wait = rng.uniform(self.low, self.high) if self.high else 0.0
        return max(wait, 1.0 / self.per_second)


class TableRate:
    """Creates at most ``per_minute`` tables in any 60 s (the server's per-address limit)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.created: list[float] = []
        self.lock = asyncio.Lock()

    async def wait_turn(self) -> None:
        async with self.lock:
            now = time.monotonic()
            self.created = [t for t in self.created if now - t < 60.0]
            if len(self.created) >= self.per_minute:
                await asyncio.sleep(60.0 - (now - self.created[0]))
            self.created.append(time.monotonic())


class Browser:
    """An HTTP client that keeps cookies, as a page does: a signed-in one sends its session cookie,
    its origin and its CSRF token with each change (``Browser(base)`` without a session: a guest
    of the API, by seat token only)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.csrf: str | None = None

    def post(self, path: str, body: Json) -> Json:
        headers = {"content-type": "application/json", "origin": self.base}
        if self.csrf:
            headers["x-csrf-token"] = self.csrf
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST", headers=headers
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"POST {path}: {error.code} {error.read()[:200]!r}") from None

    def signed(self, path: str, body: Json) -> Browser:
        """Post a sign-up or sign-in and keep the session it answers with (the cookie and its token)."""
        self.csrf = self.post(path, body)["csrf"]
        return self


PASSWORD = "load-test-password"


def account(base: str, handle: str) -> Browser:
    """A new account ``handle``, made through the API as a page makes one (a guest, then a handle and
    password), and a fresh browser signed in to it (as its player returning)."""
    Browser(base).signed("/api/me/guest", {"name": handle}).signed(
        "/api/me/account", {"handle": handle, "password": PASSWORD}
    )
    return Browser(base).signed("/api/session", {"handle": handle, "password": PASSWORD})


async def accounts_of(base: str, slot: int, humans: int) -> list[Browser]:
    """One signed-in account per human seat of table slot ``slot`` (handles new in every run)."""
    run = secrets.token_hex(3)
    return [await asyncio.to_thread(account, base, f"ld{run}-{slot}-{seat}") for seat in range(humans)]


def first_game() -> str:
    """The game a load test's tables play unless told: the first installed one."""
    return next(iter(GAMES))


@dataclass
class TablePlan:
    game: str = field(default_factory=first_game)
    humans: int = 2
    ai_agent: str = "random"
    ai_seats: int = 0

    def body(self) -> Json:
        seats = [{"kind": "human"}] * self.humans + [{"kind": "ai", "agent": self.ai_agent}] * self.ai_seats
        return {"game": self.game, "seats": seats, "sit": 0, "name": "load0"}


async def open_table(base: str, plan: TablePlan, browsers: list[Browser] | None = None) -> tuple[str, list[str]]:
    """Create a table and claim its human seats (as ``browsers``' players, else as guests): its code
    and one token per human seat."""
    seated = browsers or [Browser(base)] * plan.humans
    created = await asyncio.to_thread(seated[0].post, "/api/tables", plan.body())
    tokens = [created["token"]]
    for seat in range(1, plan.humans):
        joined = await asyncio.to_thread(
            seated[seat].post, f"/api/tables/{created['code']}/join", {"seat": seat, "name": f"load{seat}"}
        )
        tokens.append(joined["token"])
    return created["code"], tokens


def valid_result(table: Json) -> str | None:
    """Why a finished table's result is not a valid one, or None.

    >>> valid_result({"over": True, "players": 2, "result": {"winners": [1], "scores": None}})
    >>> valid_result({"over": True, "players": 2, "result": {"winners": [2]}})
    'winners [2] not seats of 2 players'
    """
    result = table.get("result")
    if not table.get("over") or not isinstance(result, dict):
        return f"no result: over={table.get('over')} result={result!r}"
    winners = result.get("winners")
    if not winners or not all(isinstance(w, int) and 0 <= w < table["players"] for w in winners):
        return f"winners {winners!r} not seats of {table['players']} players"
    return None


class Player:
    """One human seat's websocket client."""

    def __init__(
        self,
        ws_url: str,
        token: str,
        pace: Pace,
        rng: random.Random,
        tally: Tally,
        rated: bool = False,
        opening: asyncio.Semaphore | None = None,
    ) -> None:
        self.ws_url, self.token, self.pace, self.rng, self.tally = ws_url, token, pace, rng, tally
        self.opening = opening or asyncio.Semaphore(OPENING_AT_ONCE)  # shared by a process's players
        self.ws: ClientConnection | None = None  # the socket, once open (:meth:`open`)
        self.rated = rated  # after the end, wait for the ratings' changes (in ``changes``)
        self.changes: list[Json] | None = None
        self.end: Json | None = None
        self.view: Json | None = None
        self.step = -1
        self.sent_at: float | None = None  # an action in flight, waiting for the state or error with its ref
        self.sent_ref = ""
        self.actions_sent = 0
        self.acted_step = -1
        self.due: float | None = None
        self.lost = False  # a delta did not fit our view: a whole one is asked for

    async def open(self) -> None:
        """Connect, say hello and read until the seat's first state (or the table's end), with at
        most ``opening``'s count of this process's handshakes in flight."""
        async with self.opening:
            # no keepalive pings of our own: a browser sends none (it answers the server's)
            self.ws = await connect(self.ws_url, max_size=2**24, open_timeout=60, ping_interval=None)
            try:
                await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
                async with asyncio.timeout(GREETING_SECONDS):
                    while self.view is None and self.end is None:
                        raw = await self.ws.recv(decode=False)
                        self.tally.received_bytes += len(raw)
                        self._receive(orjson.loads(raw))
            except BaseException:
                await self.close()
                raise

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def play(self, deadline: float) -> Json | None:
        """Play until the table is over (its final table info) and, rated, its ratings changed, or
        the deadline (None). A player opened before (:meth:`open`, perhaps long before the step's
        clock started) takes its first pause from now."""
        if self.ws is None:
            await self.open()
        assert self.ws is not None, "open() opened it"
        async with self.ws as ws:
            self.due = None
            self._plan()
            if self._done():
                return self.end
            while True:
                timeout = (self.due or deadline) - time.monotonic()
                if time.monotonic() >= deadline:
                    return None
                try:
                    async with asyncio.timeout(max(timeout, 0.0)):  # no task per message, as wait_for makes
                        raw = await ws.recv(decode=False)
                except TimeoutError:
                    await self._act_if_due(ws)
                    continue
                self.tally.received_bytes += len(raw)
                self._receive(orjson.loads(raw))
                if self._done():
                    return self.end
                if self.lost:
                    self.lost = False
                    await ws.send(RESYNC)
                await self._act_if_due(ws)

    def _done(self) -> bool:
        """The table is over and, rated, its ratings' changes came."""
        return self.end is not None and (self.changes is not None or not self.waits_for_ratings())

    def waits_for_ratings(self) -> bool:
        """Whether the game that ended is one whose ratings change (played as accounts, and the
        table rated: not, say, with an AI that has no anchor).

        >>> player = Player("", "", Pace(), random.Random(), Tally(), rated=True)
        >>> player.end = {"over": True, "rated": False}
        >>> player.waits_for_ratings()
        False
        >>> player.end["rated"] = True
        >>> player.waits_for_ratings()
        True
        """
        return self.rated and bool(self.end and self.end.get("rated"))

    def _receive(self, message: Json) -> None:
        kind = message["type"]
        if kind in ("state", "delta"):
            self._follow(message)
        elif kind == "error":
            self.tally.error(message["message"])
        elif kind == "table" and message["table"]["over"]:
            self.end = message["table"]
        elif kind == "rated":
            self.changes = message["changes"]
        if self.sent_at is not None and message.get("ref") == self.sent_ref:
            self._answered(refused=kind == "error")
        self._plan()

    def _follow(self, message: Json) -> None:
        try:
            self.step, self.view = followed(self.view, self.step, message)
        except ValueError as error:
            self.tally.error(str(error))
            self.lost = True

    def _answered(self, refused: bool) -> None:
        """The state our action made, or the error that refused it: both carry the action's ref
        (only to us), which tells our own state from another seat's (both can act at once in
        simultaneous phases, e.g. Coda's opening)."""
        if refused:
            self.acted_step = -1  # choose again from the current view
        elif self.sent_at is not None:
            self.tally.latencies.append(time.monotonic() - self.sent_at)
        self.sent_at = None

    def _plan(self) -> None:
        """Schedule an action if this seat may act in the current view and has not yet."""
        if self.view and self.view.get("legal_actions") and self.acted_step != self.step and self.sent_at is None:
            if self.due is None:
                self.due = time.monotonic() + self.pace.pause(self.rng)
        else:
            self.due = None

    async def _act_if_due(self, ws) -> None:
        if self.due is None or self.view is None or time.monotonic() < self.due:
            return
        self.due = None
        action = self.rng.choice(self.view["legal_actions"])
        self.actions_sent += 1
        self.sent_ref = str(self.actions_sent)
        self.acted_step, self.sent_at = self.step, time.monotonic()
        await ws.send(json.dumps({"type": "action", "action": action, "ref": self.sent_ref}))


async def open_rated(
    base: str, plan: TablePlan, rate: TableRate, browsers: list[Browser] | None = None
) -> tuple[str, list[str]]:
    """:func:`open_table`, within the harness's tables-per-minute."""
    await rate.wait_turn()
    return await open_table(base, plan, browsers)


def ratings_changed(players: list[Player]) -> bool:
    """Whether every player saw its own rating change (each ``rated`` message lists every account's).

    >>> one = Player("", "", Pace(), random.Random(), Tally(), rated=True)
    >>> one.changes = [{"seat": 0, "before": 1500, "after": 1530}, {"seat": 1, "before": 1500, "after": 1470}]
    >>> ratings_changed([one]), ratings_changed([Player("", "", Pace(), random.Random(), Tally())])
    (True, False)
    """
    return all(p.changes and all(c["before"] != c["after"] for c in p.changes) for p in players)


class Slot:
    """One table slot of a step: its seeded choices, and the players of its first table when they
    were seated before the step's clock started (:meth:`seat_first`)."""

    def __init__(self, index: int, seed: int, opening: asyncio.Semaphore | None = None) -> None:
        self.index = index
        self.rng = random.Random(f"{seed}:{index}")
        self.opening = opening or asyncio.Semaphore(OPENING_AT_ONCE)
        self.seated: list[Player] | None = None

    def players(
        self, ws_base: str, code: str, tokens: list[str], pace: Pace, tally: Tally, rated: bool
    ) -> list[Player]:
        return [
            Player(f"{ws_base}/ws/{code}", token, pace, random.Random(self.rng.random()), tally, rated, self.opening)
            for token in tokens
        ]

    async def seat_first(
        self,
        base: str,
        ws_base: str,
        plan: TablePlan,
        pace: Pace,
        rate: TableRate,
        tally: Tally,
        browsers: list[Browser] | None = None,
    ) -> None:
        """Create the slot's first table and open its players' sockets, each with its seat's
        state (``--open-first``: the step's clock then starts with every socket seated). A
        failure is counted as an error; the slot then opens a table once the clock starts."""
        try:
            code, tokens = await open_rated(base, plan, rate, browsers)
            players = self.players(ws_base, code, tokens, pace, tally, rated=bool(browsers))
            opened = await asyncio.gather(*(player.open() for player in players), return_exceptions=True)
            failure = next((o for o in opened if isinstance(o, BaseException)), None)
            if failure is not None:
                await asyncio.gather(*(player.close() for player in players), return_exceptions=True)
                raise failure
            self.seated = players
        except Exception as failure:
            tally.error(f"opening a table: {type(failure).__name__}: {failure}"[:300])


async def play_tables(
    base: str,
    ws_base: str,
    plan: TablePlan,
    pace: Pace,
    rate: TableRate,
    slot: Slot,
    games: int,
    deadline: float,
    tally: Tally,
    browsers: list[Browser] | None = None,
) -> None:
    """One table slot: play ``games`` games one after the other (0: until the deadline); the first
    with the players seated beforehand, if any; as ``browsers``' accounts, if given."""
    played = 0
    while (games == 0 or played < games) and time.monotonic() < deadline:
        players, slot.seated = slot.seated, None
        if players is None:
            code, tokens = await open_rated(base, plan, rate, browsers)
            players = slot.players(ws_base, code, tokens, pace, tally, rated=bool(browsers))
        ends = [end for end in await asyncio.gather(*(player.play(deadline) for player in players)) if end is not None]
        played += 1
        if len(ends) < len(players):  # a player's game was cut by the deadline
            tally.games_cut += 1
            return
        agree = all(end["result"] == ends[0]["result"] for end in ends)
        problem = valid_result(ends[0]) or (None if agree else "players saw different results")
        if problem:
            tally.games_invalid.append(f"{code_of(players[0])}: {problem}")
        else:
            tally.games_valid += 1
            tally.games_rated += ratings_changed(players)


def code_of(player: Player) -> str:
    """The table code of a player's socket URL.

    >>> code_of(Player("ws://127.0.0.1:8000/ws/AB12C", "", Pace(), random.Random(), Tally()))
    'AB12C'
    """
    return player.ws_url.rsplit("/", 1)[1]

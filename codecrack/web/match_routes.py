"""Quick match over HTTP (the queue itself: :mod:`codecrack.web.matching`).

- ``POST /api/match`` ``{"game", "players", "preset"}``: the session's player waits for that game,
  preset (one the lobby offers; the game's default when left out) and number of players, or takes
  the seat found meanwhile: a table with the preset's options. The page calls it every couple of seconds
  while it waits (a player whose page stops calling leaves the queue). The answer is
  ``{"state": "seated", "code", "seat", "token"}`` or ``{"state": "waiting", "waited", "ai_after",
  "ai"}``: after ``ai_after`` seconds the page offers a table against ``ai``, the AI tier whose
  fixed rating is closest to the player's (null for a game without rated tiers: the page offers
  the tier chosen on the card).
- ``DELETE /api/match``: stop waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC
from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, StrictInt

from ..agents import agent_names
from ..core.errors import OptionError, explain
from ..core.game import Game
from ..core.options import Preset, find_preset
from ..core.registry import game_class
from ..i18n import _
from .hub import Hub
from .matching import Seated, absent_before, leave_queue, seat_players, tier_near, wait_in_queue, waiting
from .players.identity import Player, required_player
from .schema import ERRORS, Problem, Strict
from .store import now

# the AI that takes over a matched player who does not come (or leaves), the first the game has
MATCH_TIERS = ("medium", "easy", "random")


class MatchRequest(Strict):
    game: str
    players: StrictInt
    preset: str | None = None  # the game's default preset when left out


class MatchState(BaseModel):
    state: Literal["seated", "waiting"]
    code: str | None = None
    seat: int | None = None
    token: str | None = None
    waited: float | None = None  # seconds in the queue
    ai_after: float | None = None  # the AI is offered after this many seconds
    ai: str | None = None  # the AI tier of about the player's strength


@dataclass(frozen=True)
class Queue:
    """A quick-match queue: a game, one of its presets (none: the game has none) and a player count."""

    game: str
    preset: Preset | None
    players: int

    @property
    def key(self) -> tuple[str, str, int]:
        return self.game, self.preset.name if self.preset else "", self.players

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.preset.options) if self.preset else {}


def match_tier(game: str) -> str:
    tiers = agent_names(game)
    return next((tier for tier in MATCH_TIERS if tier in tiers), tiers[0])


def chosen_preset(cls: type[Game], name: str | None) -> Preset | None:
    """The preset named ``name`` (:class:`OptionError` if the game has none of that name), else the
    game's default one (``None`` for a game without presets)."""
    if name is not None:
        return find_preset(cls.presets, name)
    return next((preset for preset in cls.presets if preset.default), cls.presets[0] if cls.presets else None)


def match_router(hub: Hub, address_of: Callable[[Request], str]) -> APIRouter:
    router = APIRouter()
    config = hub.config
    calls = hub.fanout.window("match", config.match_calls_per_minute, 60.0)

    @router.post("/api/match", responses={**ERRORS, 401: {"model": Problem}, 429: {"model": Problem}})
    async def match(request: MatchRequest, http: Request, player: Player = Depends(required_player)) -> MatchState:
        if not await calls.allow(address_of(http)):
            raise HTTPException(
                status_code=429,
                detail=_("at most {count} quick-match calls per minute from one address").format(
                    count=config.match_calls_per_minute
                ),
            )
        try:
            cls = game_class(request.game)
            preset = chosen_preset(cls, request.preset)
            await hub.refuse_blocked([player.name])
        except OptionError as error:
            raise HTTPException(status_code=400, detail=explain(error)) from None
        if not cls.min_players <= request.players <= cls.max_players:
            raise HTTPException(
                status_code=400,
                detail=_("players: {game} is for {low} to {high} players").format(
                    game=request.game, low=cls.min_players, high=cls.max_players
                ),
            )
        queue = Queue(request.game, preset, request.players)
        found = await hub.writer.write(
            wait_in_queue, player.id, player.name, *queue.key, absent_before(config.match_absent)
        )
        if not isinstance(found, Seated):
            found = await seat_waiting(queue, player) or found
        if isinstance(found, Seated):
            return MatchState(state="seated", code=found.code, seat=found.seat, token=found.token)
        joined = found if found.tzinfo else found.replace(tzinfo=UTC)
        return MatchState(
            state="waiting",
            waited=round((now() - joined).total_seconds(), 1),
            ai_after=config.match_wait,
            ai=await asyncio.to_thread(hub.store.read, tier_near, player.id, request.game, request.players),
        )

    async def seat_waiting(queue: Queue, player: Player) -> Seated | None:
        """Seat the longest-waiting players of the queue at a new table when there are enough;
        the caller's seat if they are among them."""
        game, preset, players = queue.key
        seen_since = absent_before(config.match_absent)
        if await asyncio.to_thread(hub.store.read, waiting, game, preset, players, seen_since) < players:
            return None
        row, instance = await hub.prepare(game, players, queue.options, [{"kind": "human"}] * players, match_tier(game))
        table = await hub.open_seated(row, instance, lambda: hub.writer.write(seat_players, row, preset, seen_since))
        if table is None:
            return None
        mine = await hub.writer.write(wait_in_queue, player.id, player.name, *queue.key, seen_since)
        return mine if isinstance(mine, Seated) else None

    @router.delete("/api/match", responses={401: {"model": Problem}})
    async def leave(player: Player = Depends(required_player)) -> dict[str, str]:
        await hub.writer.write(leave_queue, player.id)
        return {"state": "left"}

    return router
